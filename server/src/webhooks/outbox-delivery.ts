// Delivering one channel of the outbox, the loop every channel shares (the lead webhook and the
// people's channels): due entries are leased in batches and sent; a failure schedules the next attempt
// with randomised, capped backoff (or when the receiver said), and an entry still undelivered when its
// 24 h retry period ends is recorded as given up. Details: webhooks/README.md.
import { backoffDelay } from '../lib/backoff.ts';
import { createBackgroundWorker } from '../lib/background-worker.ts';
import { tracing } from '../tracing/tracing.ts';
import type { OutboxChannel, OutboxEntry, WebhookOutbox } from './outbox.ts';

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

/** What one attempt came to, as the channel's sender tells it. `error` never holds a secret or a number. */
export type SendResult = { ok: true; status?: number } | { ok: false; status?: number; error: string; retryAfterMs?: number };

/** What happened to one attempt: for the caller's log line and metrics (no number in it). */
export interface DeliveryReport {
  eventId: string;
  type: string;
  channel: OutboxChannel;
  attempt: number;
  outcome: 'delivered' | 'retry' | 'gave_up';
  /** The receiver's status, when it answered. */
  status?: number;
  error?: string;
  nextAttemptAt?: number;
}

export interface DeliveryTiming {
  /** Longest wait for the receiver's answer (the lease covers it). */
  timeoutMs?: number;
  /** First retry delay; doubled each attempt up to `maxDelayMs`. */
  baseDelayMs?: number;
  maxDelayMs?: number;
  /** Retry period from the entry's creation. */
  giveUpAfterMs?: number;
  /** Entries attempted at once. */
  batch?: number;
  clock?: DeliveryClock;
  /** [0, 1): the jitter. */
  random?: () => number;
  report?: (r: DeliveryReport) => void;
}

export interface OutboxDeliveryOptions extends DeliveryTiming {
  outbox: WebhookOutbox;
  channel: OutboxChannel;
  /** This relay's id: who holds the lease of an attempt. */
  owner: string;
  /** One attempt at one entry whose body is there. Should not throw; a throw counts as a failed attempt. */
  send: (entry: OutboxEntry & { body: string }, signal: AbortSignal) => Promise<SendResult>;
}

export interface WebhookDelivery {
  /** Attempts every due entry (in batches) now; resolves with how many were attempted. */
  runOnce(): Promise<number>;
  /** Runs whenever an entry is due, until stop(). */
  start(): void;
  /** A new entry was enqueued: attempt it now rather than at the next timer. */
  notify(): void;
  stop(): Promise<void>;
}

export const DELIVERY_DEFAULTS = { timeoutMs: 10_000, baseDelayMs: 10_000, maxDelayMs: 3_600_000, giveUpAfterMs: 24 * 3_600_000, batch: 16 };
/** Longest sleep between looks at the outbox (another relay's entries, expired leases). */
const IDLE_MS = 60_000;

export function createOutboxDelivery(options: OutboxDeliveryOptions): WebhookDelivery {
  const o = { ...DELIVERY_DEFAULTS, ...options };
  const clock = options.clock ?? systemClock;
  const random = options.random ?? Math.random;
  const leaseMs = o.timeoutMs + 30_000;
  const report = (entry: OutboxEntry, r: Omit<DeliveryReport, 'eventId' | 'type' | 'channel' | 'attempt'>) =>
    options.report?.({ eventId: entry.eventId, type: entry.type, channel: o.channel, attempt: entry.attempts, ...r });

  async function attempt(entry: OutboxEntry): Promise<void> {
    if (entry.body === null) {
      await o.outbox.giveUp(entry.eventId, o.owner, 'no body', clock.now());
      return;
    }
    let result: SendResult;
    try {
      result = await o.send({ ...entry, body: entry.body }, AbortSignal.timeout(o.timeoutMs));
    } catch (err) {
      result = { ok: false, error: describeError(err, o.timeoutMs) };
    }
    const status = result.status !== undefined ? { status: result.status } : {};
    if (result.ok) {
      await o.outbox.delivered(entry.eventId, o.owner, clock.now());
      report(entry, { outcome: 'delivered', ...status });
      return;
    }
    const { error } = result;
    const now = clock.now();
    const deadline = entry.createdAt + o.giveUpAfterMs;
    if (now >= deadline) {
      await o.outbox.giveUp(entry.eventId, o.owner, error, now);
      report(entry, { outcome: 'gave_up', ...status, error });
      return;
    }
    const delay = Math.max(backoffDelay(entry.attempts, o.baseDelayMs, o.maxDelayMs, random), result.retryAfterMs ?? 0);
    const next = Math.min(deadline, now + delay);
    await o.outbox.retry(entry.eventId, o.owner, next, error, now);
    report(entry, { outcome: 'retry', ...status, error, nextAttemptAt: next });
  }

  async function runOnce(): Promise<number> {
    let total = 0;
    for (;;) {
      const due = await o.outbox.claimDue(o.owner, clock.now(), leaseMs, o.batch, o.channel);
      if (due.length === 0) return total;
      await Promise.all(
        due.map((entry) =>
          tracing.span('outbox.deliver', { 'dialback.channel': o.channel, 'dialback.event_type': entry.type, 'dialback.callback_id': entry.callbackId }, () => attempt(entry)),
        ),
      );
      total += due.length;
    }
  }

  const worker = createBackgroundWorker({
    pass: runOnce,
    // Next when the earliest entry is due, and at least every IDLE_MS (another relay may have enqueued).
    nextDelay: async () => {
      const next = await o.outbox.nextDueAt(o.channel).catch(() => null);
      return next === null ? IDLE_MS : Math.min(IDLE_MS, Math.max(0, next - clock.now()));
    },
    timers: clock,
    // A failed pass (the store, a receiver) is retried at the next delay; each attempt reports itself.
    onError: () => {},
  });

  return { runOnce, start: worker.start, notify: worker.nudge, stop: worker.stop };
}

/** A thrown error as a log may show it: its name and code or message only (never a URL, which may carry a token). */
export function describeError(err: unknown, timeoutMs: number): string {
  const e = err as Error & { cause?: { code?: string } };
  return e.name === 'TimeoutError' ? `timeout after ${timeoutMs} ms` : `${e.name}: ${e.cause?.code ?? e.message}`;
}
