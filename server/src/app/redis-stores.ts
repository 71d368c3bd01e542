// The relay's stores in Redis (REDIS_URL): every piece of shared state lives there, so N relays
// behind a balancer act as one — limits, Idempotency-Keys, held calls (scheduled, queued, re-dials),
// consent records, the outbox (lead webhook and notifications), the digest's lead tally — plus what they coordinate without storing (the SIP
// status and call-log polls, the site breaker: shared-state.ts).
//
// The limit store is used behind the blocked-client cache (blocked-clients.ts): a client already
// refused is answered from this relay's memory for a few seconds, with no Redis round trip (also
// while Redis is down); a new client's look comes from the store's copy of the blocked subjects
// while it is fresh (blocked-copy.ts); everything else asks Redis, and fails closed (503) when it cannot.
import { Registry } from 'prom-client';
import type { Config } from '../config/index.ts';
import { createConsentLog } from '../consent/consent-log.ts';
import type { RelayStores } from './relay-stores.ts';
import { cacheBlockedClients } from '../limits/blocked-clients.ts';
import { createRedisCallbackJobStore } from '../callback/stores/redis-job-store.ts';
import { connectRedis, type RedisConnection, type RedisLog } from '../storage/redis/connection.ts';
import { createRedisConsentLog } from '../consent/redis-consent-log.ts';
import { createRedisIdempotencyStore } from '../idempotency/redis-store.ts';
import { createRedisLimitStore } from '../limits/redis/limit-store.ts';
import { reportBlockedCopy } from '../limits/redis/blocked-copy-metrics.ts';
import { createRedisMetrics } from '../storage/redis/metrics.ts';
import { createRedisSharedState } from '../shared-state/redis-shared-state.ts';
import { createRedisWebhookOutbox } from '../webhooks/redis-outbox.ts';
import { createRedisReportStore } from '../report/redis-report-store.ts';
import { createRedisNeverCallList } from '../phone/redis-never-call-list.ts';
import { createRedisCallBackNumbers } from '../owner/redis-callback-numbers.ts';
import { createRedisNumberRecords } from '../number-data/redis-number-records.ts';
import { createRedisLeadTally } from '../webhooks/notify/redis-lead-tally.ts';

export interface OpenRedisOptions {
  /** Who this relay is (lock holders); a random id when not given. */
  relayId?: string;
  /** Where the Redis metrics go: the relay appends this registry to its own (app-context.ts). */
  registry?: Registry;
  now?: () => number;
  /** An open connection to use instead of REDIS_URL (tests). */
  connection?: RedisConnection;
}

export function openRedisStores(config: Config, log: RedisLog, options: OpenRedisOptions = {}): RelayStores & { connection: RedisConnection } {
  const settings = config.redis;
  if (!settings && !options.connection) throw new Error('openRedisStores: REDIS_URL is not set');
  const registry = options.registry ?? new Registry();
  const connection = options.connection ?? connectRedis(settings!, { log, observer: createRedisMetrics(registry), name: 'dialback-relay' });
  const retentionDays = config.store.retentionDays;
  const relayId = options.relayId ?? `relay-${process.pid}-${Math.random().toString(36).slice(2, 10)}`;
  // The look before each request's body is answered from a copy of the blocked subjects (blocked-copy.ts).
  const limits = createRedisLimitStore({ connection, blockedCopy: {} });
  if (limits.copy) reportBlockedCopy(limits.copy, registry);
  const jobs = createRedisCallbackJobStore({ connection, retentionDays });
  const redisConsent = createRedisConsentLog({ connection, hashSecret: config.hash.secret, retentionDays });
  const outbox = createRedisWebhookOutbox({ connection, retentionDays });
  const shared = createRedisSharedState({ connection, relayId, ...(options.now && { now: options.now }) });
  return {
    kind: 'redis',
    connection,
    limits,
    wrapLimiter: (limiter, now) => cacheBlockedClients(limiter, { ...(now && { now }) }),
    idempotency: createRedisIdempotencyStore({ ...config.protect.idempotency, ...(options.now && { now: options.now }), connection, hashSecret: config.hash.secret }),
    jobs,
    consent: config.consent.logPath ? createConsentLog({ hashSecret: config.hash.secret, path: config.consent.logPath }) : redisConsent,
    outbox,
    report: createRedisReportStore({ connection, ...(options.now && { now: options.now }) }),
    neverCall: createRedisNeverCallList(connection),
    callBackNumbers: createRedisCallBackNumbers(connection),
    // With CONSENT_LOG_PATH the Redis records written before it was set are still the number's.
    // callLog: only its forget() is used (the call-log watch's own handle polls).
    numberRecords: createRedisNumberRecords({ jobs, consent: redisConsent, outbox, callLog: shared.poll('calllog', 0) }),
    leadTally: createRedisLeadTally({ connection }),
    shared,
    registry,
    // The strikes the limit store still holds go to Redis before the connection closes.
    close: async () => {
      limits.stop();
      await limits.flushStrikes();
      await connection.close();
    },
  };
}
