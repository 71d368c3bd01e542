// Every piece of state the relay keeps, behind the store interfaces: the embedded SQLite file by
// default (DATA_DIR), and memory for tests and benchmarks. (Several relays share Redis instead:
// REDIS_URL, redis-stores.ts.) createRelay takes one RelayStores; main.ts opens it and closes it last.
import type { ConsentLog } from '../consent/consent-log.ts';
import type { Config } from '../config/index.ts';
import type { LimitStore } from '../limits/limit-store.ts';
import type { Limiter } from '../limits/index.ts';
import type { Registry } from 'prom-client';
import type { SharedState } from '../shared-state/shared-state.ts';
import { createMemoryLimitStore } from '../limits/memory/limit-store.ts';
import type { WebhookOutbox } from '../webhooks/outbox.ts';
import { createMemoryWebhookOutbox } from '../webhooks/memory-outbox.ts';
import { createMemoryLeadTally, type LeadTally } from '../webhooks/notify/lead-tally.ts';
import type { CallbackJobStore } from '../callback/job-store.ts';
import type { IdempotencyStore } from '../idempotency/idempotency-store.ts';
import { createMemoryCallbackJobStore } from '../callback/stores/memory-job-store.ts';
import { createMemoryIdempotencyStore } from '../idempotency/memory-store.ts';
import { createConsentLog } from '../consent/consent-log.ts';
import { openEmbeddedStore } from './sqlite-stores.ts';
import { cacheBlockedClients } from '../limits/blocked-clients.ts';
import type { ReportStore } from '../report/report-store.ts';
import { createMemoryReportStore } from '../report/memory-report-store.ts';
import { createMemoryNeverCallList, type NeverCallList } from '../phone/never-call-list.ts';
import { createMemoryCallBackNumbers, type CallBackNumbers } from '../owner/callback-numbers.ts';
import type { NumberRecords } from '../number-data/number-records.ts';
import { createMemoryNumberRecords } from '../number-data/memory-number-records.ts';
import { tracedMethods } from '../tracing/tracing.ts';

export interface RelayStores {
  /** Which kind, for logs and /readyz. */
  kind: 'embedded' | 'memory' | 'redis';
  limits: LimitStore;
  idempotency: IdempotencyStore;
  jobs: CallbackJobStore;
  consent: ConsentLog;
  outbox: WebhookOutbox;
  /** The lead report's facts and dialog opens (no numbers). */
  report: ReportStore;
  /** The owner's never-call list (keyed hashes). */
  neverCall: NeverCallList;
  /** Missed and failed leads' numbers, for the owner's "call back now". */
  callBackNumbers: CallBackNumbers;
  /** A number's records across the stores, found and erased on request (number-data/). */
  numberRecords: NumberRecords;
  /** The leads the daily digest counts (notifications to people). */
  leadTally: LeadTally;
  /** Wraps the relay's limiter (Redis: blocked clients answered from memory, limits/blocked-clients.ts). */
  wrapLimiter?: (limiter: Limiter, now?: () => number) => Limiter;
  /** What several relays coordinate (polls, breaker); absent on the embedded store (one relay). */
  shared?: SharedState;
  /** The store's own metrics (Redis latency, errors, up), appended to the relay's /metrics. */
  registry?: Registry;
  close(): Promise<void>;
}

/** The embedded store in DATA_DIR: created and migrated if needed; a file from newer code is a startup error. */
export function openEmbeddedStores(config: Config, now?: () => number): RelayStores {
  const store = openEmbeddedStore({
    dataDir: config.store.dataDir,
    hashSecret: config.hash.secret,
    retentionDays: config.store.retentionDays,
    limiterMaxKeys: config.protect.limits.maxKeys,
    idempotency: config.protect.idempotency,
    ...(now && { now }),
  });
  return {
    kind: 'embedded',
    limits: store.limits,
    idempotency: store.idempotency,
    jobs: store.jobs,
    // CONSENT_LOG_PATH keeps its JSON-lines file (an operator may ship it elsewhere); otherwise the records live in the store.
    consent: config.consent.logPath ? createConsentLog({ hashSecret: config.hash.secret, path: config.consent.logPath }) : store.consent,
    outbox: store.outbox,
    report: store.report,
    neverCall: store.neverCall,
    callBackNumbers: store.callBackNumbers,
    numberRecords: store.numberRecords,
    leadTally: store.leadTally,
    // A client found blocked is refused from memory for a moment (never past its wait): a flood
    // from it then costs no look at the limit tables, as with Redis.
    wrapLimiter: (limiter, now) => cacheBlockedClients(limiter, { ...(now && { now }) }),
    close: () => store.close(),
  };
}

/** Memory only: forgets everything on restart. For tests and benchmarks, never the relay's default. */
export function memoryStores(config: Config, now?: () => number): RelayStores {
  const jobs = createMemoryCallbackJobStore();
  const outbox = createMemoryWebhookOutbox();
  return {
    kind: 'memory',
    limits: createMemoryLimitStore({ maxKeysPerTable: config.protect.limits.maxKeys, ...(now && { startMs: now() }) }),
    idempotency: createMemoryIdempotencyStore({ ...config.protect.idempotency, ...(now && { now }) }),
    jobs,
    consent: createConsentLog({ hashSecret: config.hash.secret, path: config.consent.logPath }),
    outbox,
    report: createMemoryReportStore(),
    neverCall: createMemoryNeverCallList(),
    callBackNumbers: createMemoryCallBackNumbers(),
    numberRecords: createMemoryNumberRecords({ jobs, outbox }),
    leadTally: createMemoryLeadTally(),
    close: async () => {},
  };
}

/** Each store's calls made inside a request or a job, as spans `store.<store>.<method>` (tracing/). */
export function tracedStores(stores: RelayStores): RelayStores {
  const traced: Record<string, unknown> = { ...stores };
  for (const [name, store] of Object.entries(stores)) {
    if (name !== 'registry' && name !== 'shared' && store !== null && typeof store === 'object') traced[name] = tracedMethods(store, `store.${name}`);
  }
  return traced as unknown as RelayStores;
}
