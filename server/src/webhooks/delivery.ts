// Delivers the outbox to LEAD_WEBHOOK_URL: each attempt is a signed POST (signing.ts) of the event's
// stored body with its stable id; a 2xx answer delivers it. Anything else (another status, a
// redirect, a network error, no answer within the timeout) schedules the next attempt with
// exponential backoff, randomised (so a receiver back from an outage is not hit by every event at
// once) and capped; the last attempt is made when the retry period (24 h from the event) ends, and
// an event still undelivered then is recorded as given up.
//
// Time comes from an injectable clock and timers, so tests advance time instead of waiting.
import { backoffDelay } from '../lib/backoff.ts';
import { createBackgroundWorker } from '../lib/background-worker.ts';
import { parseWebhookSecret, signWebhook } from './signing.ts';
import type { OutboxEntry, WebhookOutbox } from './outbox.ts';
import type { WebhookSettings } from '../config/webhooks.ts';

export interface DeliveryClock {
  now(): number;
  setTimeout(fn: () => void, ms: number): unknown;
  clearTimeout(handle: unknown): void;
}

const systemClock: DeliveryClock = {
  now: Date.now,
  setTimeout: (fn, ms) => setTimeout(fn, ms).unref(),
  clearTimeout: (handle) => clearTimeout(handle as NodeJS.Timeout),
};

/** What happened to one attempt: for the caller's log line and metrics (no number in it). */
export interface DeliveryReport {
  eventId: string;
  type: string;
  attempt: number;
  outcome: 'delivered' | 'retry' | 'gave_up';
  /** The receiver's status, when it answered. */
  status?: number;
  error?: string;
  nextAttemptAt?: number;
}

export interface WebhookDeliveryOptions {
  outbox: WebhookOutbox;
  settings: WebhookSettings;
  /** This relay's id: who holds the lease of an attempt. */
  owner: string;
  fetch?: typeof fetch;
  /** Longest wait for the receiver's answer. */
  timeoutMs?: number;
  /** First retry delay; doubled each attempt up to `maxDelayMs`. */
  baseDelayMs?: number;
  maxDelayMs?: number;
  /** Retry period from the event's creation. */
  giveUpAfterMs?: number;
  /** Entries attempted at once. */
  batch?: number;
  clock?: DeliveryClock;
  /** [0, 1): the jitter. */
  random?: () => number;
  report?: (r: DeliveryReport) => void;
}

export interface WebhookDelivery {
  /** Attempts every due entry (in batches) now; resolves with how many were attempted. */
  runOnce(): Promise<number>;
  /** Runs whenever an entry is due, until stop(). */
  start(): void;
  /** A new event was enqueued: attempt it now rather than at the next timer. */
  notify(): void;
  stop(): Promise<void>;
}

export const DELIVERY_DEFAULTS = { timeoutMs: 10_000, baseDelayMs: 10_000, maxDelayMs: 3_600_000, giveUpAfterMs: 24 * 3_600_000, batch: 16 };
/** Longest sleep between looks at the outbox (another relay's entries, expired leases). */
const IDLE_MS = 60_000;

/** The delay before attempt `attempt + 1`: base·2^(attempt−1), capped, then jittered into [½, 1]×. */

export function createWebhookDelivery(options: WebhookDeliveryOptions): WebhookDelivery {
  const o = { ...DELIVERY_DEFAULTS, ...options };
  const clock = options.clock ?? systemClock;
  const fetchFn = options.fetch ?? fetch;
  const random = options.random ?? Math.random;
  const key = parseWebhookSecret(options.settings.secret);
  const leaseMs = o.timeoutMs + 30_000;

  async function attempt(entry: OutboxEntry): Promise<void> {
    const at = clock.now();
    if (entry.body === null) {
      await o.outbox.giveUp(entry.eventId, o.owner, 'no body', at);
      return;
    }
    let status: number | undefined;
    let error: string;
    try {
      const headers = signWebhook(key, entry.eventId, Math.floor(at / 1000), entry.body);
      const res = await fetchFn(o.settings.url, {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'user-agent': 'Dialback-Webhook/1', ...headers },
        body: entry.body,
        redirect: 'manual',
        signal: AbortSignal.timeout(o.timeoutMs),
      });
      status = res.status;
      await res.body?.cancel().catch(() => {});
      if (res.status >= 200 && res.status < 300) {
        await o.outbox.delivered(entry.eventId, o.owner, clock.now());
        options.report?.({ eventId: entry.eventId, type: entry.type, attempt: entry.attempts, outcome: 'delivered', status });
        return;
      }
      error = `HTTP ${res.status}`;
    } catch (err) {
      // The error's name and message only (never the URL, which may carry a token).
      const e = err as Error & { cause?: { code?: string } };
      error = e.name === 'TimeoutError' ? `timeout after ${o.timeoutMs} ms` : `${e.name}: ${e.cause?.code ?? e.message}`;
    }
    const now = clock.now();
    const deadline = entry.createdAt + o.giveUpAfterMs;
    if (now >= deadline) {
      await o.outbox.giveUp(entry.eventId, o.owner, error, now);
      options.report?.({ eventId: entry.eventId, type: entry.type, attempt: entry.attempts, outcome: 'gave_up', ...(status !== undefined && { status }), error });
      return;
    }
    const next = Math.min(deadline, now + backoffDelay(entry.attempts, o.baseDelayMs, o.maxDelayMs, random));
    await o.outbox.retry(entry.eventId, o.owner, next, error, now);
    options.report?.({ eventId: entry.eventId, type: entry.type, attempt: entry.attempts, outcome: 'retry', ...(status !== undefined && { status }), error, nextAttemptAt: next });
  }

  async function runOnce(): Promise<number> {
    let total = 0;
    for (;;) {
      const due = await o.outbox.claimDue(o.owner, clock.now(), leaseMs, o.batch);
      if (due.length === 0) return total;
      await Promise.all(due.map(attempt));
      total += due.length;
    }
  }

  const worker = createBackgroundWorker({
    pass: runOnce,
    // Next when the earliest entry is due, and at least every IDLE_MS (another relay may have enqueued).
    nextDelay: async () => {
      const next = await o.outbox.nextDueAt().catch(() => null);
      return next === null ? IDLE_MS : Math.min(IDLE_MS, Math.max(0, next - clock.now()));
    },
    timers: clock,
    // A failed pass (the store, a receiver) is retried at the next delay; each attempt reports itself.
    onError: () => {},
  });

  return { runOnce, start: worker.start, notify: worker.nudge, stop: worker.stop };
}
