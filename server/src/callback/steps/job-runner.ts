// The held calls' runner: every few seconds (and when nudged) it claims the due jobs of the job
// store with a lease (exactly one relay handles each), reads the call log once for the batch when a
// job needs it, and hands each job to place-held-call.ts. While a job is being handled its lease is
// renewed every third of its length, so a slow service cannot make it look abandoned. A relay
// killed mid-job leaves its lease to expire; the next claim is flagged `interrupted`, and the
// unknown-outcome rule applies (never a blind second call).
//
// Time is the app's clock (app.now); the timers are the app's (app.timers) or the runner's own, so
// tests call runOnce() on their own clock instead of waiting.
import type { CallbackDeps } from '../deps.ts';
import { WATCH_FIELDS } from '../progress/call-log-watch.ts';
import type { CallbackJob } from '../job-store.ts';
import { createBackgroundWorker } from '../../lib/background-worker.ts';
import { tracing } from '../../tracing/tracing.ts';
import type { Timers } from '../../lib/timers.ts';
import { ROW_SKEW_MS, type HeldContext, type HeldStep, type LogRows } from './held-context.ts';
import { heldTiming, type HeldTiming } from './held-timing.ts';
import { handleHeldJob, logNeededSince } from './place-held-call.ts';

export type RunnerTimers = Timers;

export interface JobRunnerOptions {
  /** The runner's own timers; the app's (app.timers) by default. */
  timers?: Timers;
  /** Between looks at the store; at most 5 s, so a due call is placed within 30 s. */
  intervalMs?: number;
  /** Jobs claimed at once. */
  batch?: number;
  timing?: Partial<HeldTiming>;
  /** [0, 1): the backoff's jitter. */
  random?: () => number;
  /** Awaited at each step of placing a call: for tests (a kill -9 right there) and traces. */
  onStep?: (step: HeldStep, job: CallbackJob) => void | Promise<void>;
}

export interface JobRunner {
  /** Claims and handles every due job now (in batches); resolves with how many were handled. */
  runOnce(): Promise<number>;
  /** Runs every intervalMs until stop(). */
  start(): void;
  /** A job became due now (a call held just now): look at once rather than at the next tick. */
  nudge(): void;
  /** Stops the timer and waits for the jobs in hand. */
  stop(): Promise<void>;
}

export function createJobRunner(app: CallbackDeps, options: JobRunnerOptions = {}): JobRunner {
  const timers = options.timers ?? app.timers;
  const intervalMs = Math.min(options.intervalMs ?? 2_000, 5_000);
  const batch = options.batch ?? 16;
  const timing = { ...heldTiming(app.config), ...options.timing };
  const now = () => app.now().getTime();
  const ctx: HeldContext = { app, timing, now, random: options.random ?? Math.random, ...(options.onStep && { onStep: options.onStep }) };

  /** One /calls/list for the whole batch, from the earliest attempt any job must look for. */
  async function readLog(jobs: readonly CallbackJob[]): Promise<LogRows> {
    const since = Math.min(...jobs.map((j) => logNeededSince(j) ?? Number.POSITIVE_INFINITY));
    if (since === Number.POSITIVE_INFINITY) return [];
    try {
      return await app.client.callsList({ from: new Date(since - 2 * ROW_SKEW_MS), to: new Date(now() + ROW_SKEW_MS), fields: WATCH_FIELDS });
    } catch (err) {
      app.log.warn('call log unavailable for held calls', { err });
      return null;
    }
  }

  /** Handles one job under its lease, renewing it every third of its length until done. */
  async function handle(job: CallbackJob, rows: LogRows): Promise<void> {
    let timer: unknown = null;
    const renew = () => {
      timer = timers.setTimeout(() => {
        app.stores.jobs.renew(job.callbackId, app.relayId, now(), timing.leaseMs).then(
          (held) => (held ? renew() : undefined),
          () => renew(),
        );
      }, timing.leaseMs / 3);
    };
    renew();
    try {
      await handleHeldJob(ctx, job, rows);
    } catch (err) {
      // Left leased: after expiry it is taken over as interrupted, and the log decides.
      app.log.error('held call not handled', { callbackId: job.callbackId, err });
    } finally {
      timers.clearTimeout(timer);
    }
  }

  async function runOnce(): Promise<number> {
    let total = 0;
    for (;;) {
      const jobs = await app.stores.jobs.claimDue(app.relayId, now(), timing.leaseMs, batch);
      if (jobs.length === 0) return total;
      const rows = await readLog(jobs);
      await Promise.all(jobs.map((job) => tracing.span('callback.job', { 'dialback.callback_id': job.callbackId, 'dialback.stage': job.stage }, () => handle(job, rows))));
      total += jobs.length;
      if (jobs.length < batch) return total;
    }
  }

  const worker = createBackgroundWorker({
    pass: runOnce,
    nextDelay: () => intervalMs,
    timers,
    onError: (err) => app.log.error('held calls: runner pass failed', { err }),
  });

  return { runOnce, start: worker.start, nudge: worker.nudge, stop: worker.stop };
}
