// What handling one claimed job needs (the app, the timing, the clock), and the job's moves. Each
// move goes through the lifecycle (lifecycle.ts), which tells the listeners (the lead webhook…)
// before the store records it: the purge empties a finished job's number, and the event needs it.
import type { CallbackDeps } from '../deps.ts';
import type { WatchedRow } from '../progress/call-log-watch.ts';
import { sameNumber } from '../progress/accepted-calls.ts';
import type { Logger } from '../../log/index.ts';
import type { CallbackJob, JobProgress, JobStep } from '../job-store.ts';
import type { WaitingStage } from '../stages.ts';
import type { HeldTiming } from './held-timing.ts';

/** A step of handling a job, for tests (a kill -9 at that point) and traces. Awaited. */
export type HeldStep = 'placing' | 'placed';

export interface HeldContext {
  app: CallbackDeps;
  timing: HeldTiming;
  now: () => number;
  /** [0, 1): the backoff's jitter. */
  random: () => number;
  onStep?: (step: HeldStep, job: CallbackJob) => void | Promise<void>;
}

/** What the runner read of the call log for this batch; null when it could not be read. */
export type LogRows = readonly WatchedRow[] | null;

/** Clocks differ: a row may be dated a little before the attempt that made it. */
export const ROW_SKEW_MS = 60_000;

/** The rows of calls to or from `digits` dated from `since` on, the closest to `since` first. */
export function rowsOf(rows: readonly WatchedRow[], digits: string, since: number): WatchedRow[] {
  return rows
    .filter((r) => r.calldate.getTime() >= since - ROW_SKEW_MS && (sameNumber(r.dst, digits) || sameNumber(r.caller, digits)))
    .sort((a, b) => Math.abs(a.calldate.getTime() - since) - Math.abs(b.calldate.getTime() - since));
}

/** The destination in international digits, as the service and the call log write it. */
export const digitsOf = (job: CallbackJob): string => (job.request.e164 ?? '').replace(/^\+/, '');

export function jobMoves(ctx: HeldContext, job: CallbackJob, log: Logger) {
  const { app } = ctx;
  const lost = (what: string) => log.warn('held call: lease lost before its step was recorded', { step: what });
  const count = (outcome: string) => app.metrics.heldCalls.inc({ kind: job.stage, outcome });

  /** One step, or several written at once (placed and already over). */
  async function go(step: JobStep, ...then: JobStep[]): Promise<void> {
    const last = then.at(-1) ?? step;
    if (!(await app.lifecycle.move(job, step, ...then))) lost(last.stage);
  }

  return {
    count,
    go,
    /** Waits in `stage` until `dueAt` (at least a second from now), remembering `progress`. */
    wait: (stage: WaitingStage, dueAt: number, progress: JobProgress) => go(waitStep(ctx, stage, dueAt, progress)),
    /** The call cannot be placed: the owner is told (callback.failed), then the job is over. */
    async fail(reason: string): Promise<void> {
      log.warn('held call failed', { reason });
      count('failed');
      await go({ stage: 'failed', outcome: reason });
    },
  };
}

/** A wait of at least a second from now: a job is never due again within its own pass. */
export const waitStep = (ctx: HeldContext, stage: WaitingStage, dueAt: number, progress: JobProgress): JobStep => ({ stage, dueAt: Math.max(dueAt, ctx.now() + 1000), progress });

export type JobMoves = ReturnType<typeof jobMoves>;
