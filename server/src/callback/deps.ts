// What a callback's use-cases and steps use of the relay, each part by its own type. The relay's
// assembly (app/app-context.ts) is one such object and passes itself; a test may pass any other.
// Nothing here names the assembly, the report or the owner view, so callback/ never imports them
// back: they listen to the lifecycle instead.
import type { CallTrackingClient } from '../calltracking/client.ts';
import type { Captcha } from '../captcha/turnstile.ts';
import type { Config } from '../config/index.ts';
import type { ConsentLog } from '../consent/consent-log.ts';
import type { Departments } from '../departments/departments.ts';
import type { IdempotencyStore } from '../idempotency/idempotency-store.ts';
import type { MemoryCopies } from '../lib/memory-copies.ts';
import type { Timers } from '../lib/timers.ts';
import type { Limiter } from '../limits/index.ts';
import type { Logger } from '../log/index.ts';
import type { RelayMetrics } from '../metrics/relay-metrics.ts';
import type { NeverCallList } from '../phone/never-call-list.ts';
import type { WebhookDelivery } from '../webhooks/delivery.ts';
import type { Notifier } from '../webhooks/notify/notifier.ts';
import type { CallbackJobStore } from './job-store.ts';
import type { Lifecycle } from './lifecycle.ts';
import type { AcceptedCalls } from './progress/accepted-calls.ts';

export interface CallbackDeps {
  config: Config;
  client: CallTrackingClient;
  log: Logger;
  now: () => Date;
  timers: Timers;
  /** This relay among several: the owner of the leases it takes. */
  relayId: string;
  metrics: RelayMetrics;
  limiter: Limiter;
  captcha: Captcha | null;
  idempotency: IdempotencyStore;
  departments: Departments;
  copies: MemoryCopies;
  consent: ConsentLog;
  accepted: AcceptedCalls;
  lifecycle: Lifecycle;
  stores: {
    jobs: CallbackJobStore;
    neverCall: NeverCallList;
    /** The number a missed or failed lead keeps for the owner's "call back now", while it is kept. */
    callBackNumbers: { get(callbackId: string, nowMs: number): Promise<string | null> };
  };
  /** Whether a lead webhook is configured: a placed call's miss is then worth following. */
  delivery: WebhookDelivery | null;
  notifier: Pick<Notifier, 'followsOutcomes'> | null;
}
