// What every route may use, built once per relay. Routes take this instead of reaching for globals,
// so tests can build a relay with any piece replaced (RelayDeps).
import type { Config } from '../config/index.ts';
import { createCallTrackingClient, type CallTrackingClient } from '../calltracking/client.ts';
import type { Logger } from '../log/index.ts';
import { createOriginPolicy, type OriginPolicy } from '../http/origin.ts';
import { createAgentStatus, type AgentStatus } from '../calltracking/agent-status.ts';
import type { ConsentLog } from '../consent/consent-log.ts';
import { createAcceptedCalls, type AcceptedCalls } from '../callback/progress/accepted-calls.ts';
import { createCallLogWatch } from '../callback/progress/call-log-watch.ts';
import { createProgressTracker, type ProgressTracker } from '../callback/progress/progress-tracker.ts';
import { createProtection, type Protection } from './protection.ts';
import { realTimers, type Timers } from '../lib/timers.ts';
import { memoryStores, tracedStores, type RelayStores } from './relay-stores.ts';
import { tracing } from '../tracing/tracing.ts';
import { createDepartments, type Departments } from '../departments/departments.ts';
import { createRelayMetrics } from '../metrics/relay-metrics.ts';
import { observeUpstream } from '../metrics/upstream.ts';
import { createLeadAnnouncer, type LeadAnnouncer } from '../webhooks/lead-events.ts';
import { createWebhookDelivery, type WebhookDelivery } from '../webhooks/delivery.ts';
import { createLifecycle, type Lifecycle } from '../callback/lifecycle.ts';
import { announceLeads } from '../callback/listeners/lead-announcements.ts';
import { recordLeadFacts } from '../report/lead-facts.ts';
import { keepCallBackNumbers } from '../owner/keep-callback-numbers.ts';
import { notifyLeads } from '../callback/listeners/lead-notifications.ts';
import { createNotifier, type Notifier } from '../webhooks/notify/notifier.ts';
import { createMemoryCopies, type MemoryCopies } from '../lib/memory-copies.ts';
import { createErasureNotices, type ErasureNotices } from '../shared-state/erasure-notices.ts';
import { eraseFromConsentFile } from '../consent/erase-from-file.ts';
import { hostname } from 'node:os';
import { randomBytes } from 'node:crypto';

export interface AppDeps {
  config: Config;
  log: Logger;
  /** Defaults to a client for config.service. */
  client?: CallTrackingClient;
  now?: () => Date;
  /** Where the relay's state lives: main.ts opens the embedded store (or Redis); memory by default, for tests. */
  stores?: RelayStores;
  /** The timers of background work (timers.ts); node's by default. */
  timers?: Timers;
}

/** Protection adds: metrics, limiter, idempotency, captcha, readiness. */
export interface AppContext extends Protection {
  config: Config;
  client: CallTrackingClient;
  log: Logger;
  origins: OriginPolicy;
  agents: AgentStatus;
  consent: ConsentLog;
  stores: RelayStores;
  /** This relay among several: who holds a lease on a held call or a webhook attempt. */
  relayId: string;
  /** The lead webhook's events (webhooks/lead-events.ts). */
  leads: LeadAnnouncer;
  /** The only way a callback's stage changes; its listeners hear of every step (callback/lifecycle.ts). */
  lifecycle: Lifecycle;
  /** The lead webhook's delivery worker; null without LEAD_WEBHOOK_URL. Started by Relay.start(). */
  delivery: WebhookDelivery | null;
  /** Notifications to people (email, Telegram, the daily digest); null when no channel is configured. Started by Relay.start(). */
  notifier: Notifier | null;
  accepted: AcceptedCalls;
  /** What became of each placed call (SIP status, then the call log), one per relay. */
  progress: ProgressTracker;
  /** The departments (DEPARTMENTS_FILE) and their office hours; one implicit department without the file. */
  departments: Departments;
  now: () => Date;
  timers: Timers;
  /** What this relay holds in memory about numbers, forgotten with a number erased on request (lib/memory-copies.ts). */
  copies: MemoryCopies;
  /** Several relays (Redis): how a number erased here is forgotten in the others' memory; null with one relay. Started by Relay.start(). */
  erasureNotices: ErasureNotices | null;
}

export function createAppContext(deps: AppDeps): AppContext {
  const { config, log } = deps;
  const metrics = createRelayMetrics();
  const nowMs = deps.now && (() => deps.now!().getTime());
  const given = deps.stores ?? memoryStores(config, nowMs);
  const stores = tracing.enabled ? tracedStores(given) : given;
  if (stores.registry) metrics.registry.append(stores.registry);
  const now = deps.now ?? (() => new Date());
  const timers = deps.timers ?? realTimers;
  const relayId = `${hostname()}:${process.pid}:${randomBytes(4).toString('hex')}`;
  const delivery = config.leadWebhook
    ? createWebhookDelivery({
        outbox: stores.outbox,
        settings: config.leadWebhook,
        owner: relayId,
        clock: { now: () => now().getTime(), setTimeout: timers.setTimeout, clearTimeout: timers.clearTimeout },
        report: (r) => {
          metrics.webhookDeliveries.inc({ outcome: r.outcome });
          log[r.outcome === 'delivered' ? 'info' : 'warn']('lead webhook', { ...r });
        },
      })
    : null;
  const client =
    deps.client ??
    createCallTrackingClient({
      baseUrl: config.service.baseUrl,
      authKey: config.service.authKey,
      timeoutMs: config.service.upstreamTimeoutMs,
      observe: observeUpstream(metrics),
      timeZone: config.service.timeZone,
    });
  const accepted = createAcceptedCalls();
  // With Redis, one relay polls the SIP status and the call log for all (shared-state/redis-shared-state.ts).
  const agents = createAgentStatus(client, {
    cacheMs: config.service.statusCacheMs,
    log,
    ...(stores.shared && { shared: stores.shared.poll('sipstatus', config.service.statusCacheMs) }),
  });
  const nowOfApp = () => now().getTime();
  const watch = createCallLogWatch({ client, pollMs: config.outcome.pollMs, now: nowOfApp, log, shared: stores.shared });
  const progress = createProgressTracker({
    accepted,
    agents,
    watch,
    managerDst: config.service.callback.managerDst,
    ringSeconds: config.outcome.ringSeconds,
    pollMs: config.outcome.pollMs,
    now: nowOfApp,
    log,
  });
  const leads = createLeadAnnouncer({ outbox: stores.outbox, delivery, now: () => now().getTime(), log });
  const lifecycle = createLifecycle({
    store: stores.jobs,
    owner: relayId,
    now: nowOfApp,
    onListenerError: (err, event) => log.error('callback step not told', { err, callbackId: event.callbackId, from: event.from, to: event.to }),
  });
  lifecycle.on(announceLeads(leads));
  lifecycle.on(recordLeadFacts(stores.report, log));
  lifecycle.on(keepCallBackNumbers(stores.callBackNumbers, log));
  const notifier = createNotifier({
    settings: config.notify,
    timeZone: config.service.timeZone,
    publicUrl: config.http.publicUrl,
    outbox: stores.outbox,
    tally: stores.leadTally,
    owner: relayId,
    now: nowOfApp,
    timers,
    log,
    registry: metrics.registry,
  });
  if (notifier) lifecycle.on(notifyLeads(notifier));
  const protection = createProtection({
    config,
    log,
    client,
    metrics,
    limitStore: stores.limits,
    idempotency: stores.idempotency,
    wrapLimiter: stores.wrapLimiter,
    shared: stores.shared,
    ...(nowMs && { now: nowMs }),
  });
  const copies = createMemoryCopies();
  copies.hold('consent records', (erased) => stores.consent.forget(erased.hash));
  copies.hold('placed calls', (erased) => accepted.forgetNumber(erased));
  copies.hold('followed calls', (erased) => progress.forgetNumber(erased));
  copies.hold('call log rows', (erased) => watch.forgetNumber(erased));
  copies.hold('limit keys', (erased) => protection.limiter.forgetNumber(erased.e164.slice(1)));
  const consentFile = config.consent.logPath;
  const erasureNotices = stores.shared
    ? createErasureNotices({
        shared: stores.shared,
        copies,
        hashSecret: config.hash.secret,
        relayId,
        timers,
        log,
        ...(consentFile && { forgetOnDisk: (erased) => eraseFromConsentFile(consentFile, erased.hash) }),
      })
    : null;
  return {
    config,
    client,
    progress,
    log,
    origins: createOriginPolicy(config.http.allowedOrigins, config.http.publicUrl),
    agents,
    consent: stores.consent,
    stores,
    relayId,
    delivery,
    notifier,
    leads,
    lifecycle,
    accepted,
    departments: createDepartments(config.departments, config.held.scheduleMaxDays),
    now,
    timers,
    copies,
    erasureNotices,
    ...protection,
  };
}
