// One claimed job, from its stage (stages.ts) to its next step: follow, look up an unknown outcome in
// the call log, wait for office hours or a site cap, fail, or place the call. Never a blind second
// call. The order and each answer: this folder's README ("One claimed job's next step").
import { CallTrackingError, CallTrackingRejectedError } from '../../calltracking/errors.ts';
import { refusesOurCredentials } from '../../calltracking/to-relay-error.ts';
import { maskPhone, type Logger } from '../../log/index.ts';
import type { Admission } from '../../limits/admission.ts';
import { LimitRefusalError, siteReasons } from '../../limits/refusal.ts';
import { backoffDelay } from '../../lib/backoff.ts';
import type { CallbackJob, JobProgress } from '../job-store.ts';
import type { WaitingStage } from '../stages.ts';
import { callbackParams } from './callback-params.ts';
import { followingSteps, followStep, placedProgress } from './follow-outcome.ts';
import { digitsOf, jobMoves, rowsOf, type HeldContext, type JobMoves, type LogRows } from './held-context.ts';
import { closesAfter, openAtOrAfter } from './held-timing.ts';
import { placeCallback } from './place-callback.ts';

/** From when the call log must be read for this job before it is handled; null when it need not be. */
export function logNeededSince(job: CallbackJob): number | null {
  if (job.progress.lastAttemptAt !== null) return job.progress.lastAttemptAt;
  return job.interrupted ? job.dueAt : null;
}

export async function handleHeldJob(ctx: HeldContext, job: CallbackJob, rows: LogRows): Promise<void> {
  const log = ctx.app.log.child({ callbackId: job.callbackId, stage: job.stage, phone: maskPhone(job.request.e164 ?? '') });
  const moves = jobMoves(ctx, job, log);
  const { progress } = job;
  if (job.request.e164 === null || job.request.clientIp === null) return moves.fail('no_number');

  if (job.stage === 'following') return moves.go(followStep(ctx, job, progress, rows, log));

  // A retry decided after an unknown outcome that had to wait (office closed): placed as decided.
  const retryDecided = job.stage === 'checking' && progress.lastAttemptAt === null && progress.retriedUnknown;
  if (job.interrupted || (job.stage === 'checking' && !retryDecided)) {
    // The previous attempt (this owner's timeout, or a dead owner's) started at `since` or later.
    const since = progress.lastAttemptAt ?? job.dueAt;
    const unsure: JobProgress = { ...progress, lastAttemptAt: since };
    if (rows === null) return moves.wait('checking', ctx.now() + ctx.timing.logRetryMs, unsure);
    if (rowsOf(rows, digitsOf(job), since).length > 0) {
      log.info('held call found in the call log: it was placed, and is not placed again');
      return placed(ctx, job, placedProgress(progress, since), moves, log, rows);
    }
    // A dead owner may have placed it up to the moment its lease ran out (now): the log is
    // conclusive only after the ring time from now.
    if (job.interrupted) return moves.wait('checking', ctx.now() + ctx.timing.checkAfterMs, unsure);
    if (progress.retriedUnknown) {
      ctx.app.metrics.heldCalls.inc({ kind: job.stage, outcome: 'unknown' });
      return moves.fail('outcome_unknown');
    }
    log.info('held call: no call in the log after an unknown outcome; placing it once more');
    // The same call once more: its limits were counted for the attempt that left no trace.
    return place(ctx, job, { ...progress, lastAttemptAt: null, retriedUnknown: true }, moves, log, { counted: true });
  }
  await place(ctx, job, progress, moves, log, { counted: job.stage === 'queued' || retryDecided });
}

/** `counted`: the call's limits are counted already (a queued call was fully admitted when it was accepted; a retry after an unknown outcome was admitted for that attempt). */
async function place(ctx: HeldContext, job: CallbackJob, progress: JobProgress, moves: JobMoves, log: Logger, { counted }: { counted: boolean }): Promise<void> {
  const { app, timing } = ctx;
  const now = ctx.now();
  // A call that must wait waits in the stage it is in (a decided retry keeps its decision). Only
  // waiting stages are claimed, and a followed call never gets here (handleHeldJob).
  const stage = job.stage as Exclude<WaitingStage, 'following'>;
  // How late a booked call or a re-dial may become: from its booked time, or when the re-dial was first due.
  const plannedAt = (stage === 'scheduled' ? progress.scheduledFor : progress.dueSince) ?? job.dueAt;
  const later = async (at: number, reason: string) => {
    if (at - plannedAt > timing.maxLateMs) return moves.fail(reason);
    moves.count('waiting');
    await moves.wait(stage, at, stage === 'scheduled' ? progress : { ...progress, dueSince: plannedAt });
  };

  const closes = closesAfter(app.config, now, job.request.department);
  if (closes === null) {
    if (stage === 'queued') return moves.fail('office_closed');
    const opens = openAtOrAfter(app.config, now, timing.maxLateMs, job.request.department);
    return opens === null ? moves.fail('office_closed') : later(opens, 'office_closed');
  }
  if (progress.queuedAt !== null && now > progress.queuedAt + app.config.held.queueMaxWaitSec * 1000) return moves.fail('upstream_unavailable');

  // Listed on the owner's never-call list since it was booked or held: never placed.
  if (await app.stores.neverCall.has(job.numberHash)) return moves.fail('number_not_allowed');
  const digits = digitsOf(job);
  let admission: Admission | null = null;
  if (!counted) {
    try {
      admission = await app.limiter.admit({ digits, clientIp: job.request.clientIp!, site: job.request.origin, part: 'destination' });
    } catch (err) {
      if (!(err instanceof LimitRefusalError)) throw err;
      const { reason, retryAfter } = err.refusal;
      log.info('held call refused by a limit', { reason, retryAfter });
      if (reason in siteReasons || reason === 'limiter_full' || reason === 'number_in_flight') return later(now + retryAfter * 1000, reason);
      return moves.fail(reason);
    }
  }

  let attemptAt = 0;
  let failure: unknown = null;
  try {
    await ctx.onStep?.('placing', job);
    attemptAt = ctx.now();
    try {
      const params = callbackParams(app.config, {
        digits,
        clientIp: job.request.clientIp!,
        userAgent: job.request.userAgent,
        attribution: job.request.attribution,
        department: job.request.department,
      });
      const { attempts } = await placeCallback(app.client, params, log);
      log.info('held call placed', { attempts, attempt: job.attempts, origin: job.request.origin, redial: progress.redials });
    } catch (err) {
      failure = err;
    }
  } finally {
    // The number's in-flight slot is freed whatever happened.
    await admission?.release();
  }

  if (failure === null) {
    await ctx.onStep?.('placed', job);
    return placed(ctx, job, placedProgress(progress, attemptAt), moves, log, null);
  }
  if ((failure instanceof CallTrackingError && failure.neverSent) || refusesOurCredentials(failure)) return unreachable(ctx, job, progress, moves, log, failure);
  if (failure instanceof CallTrackingRejectedError) return moves.fail('upstream_rejected');
  // It may have rung: look in the call log once the ring time has passed.
  log.warn('held call: outcome unknown; the call log decides', { err: failure });
  moves.count('unknown');
  await moves.wait('checking', attemptAt + timing.checkAfterMs, { ...progress, lastAttemptAt: attemptAt });
}

/** The service took the call (or the log shows it did): the owner is told, progress can follow it, and so does the relay. */
async function placed(ctx: HeldContext, job: CallbackJob, progress: JobProgress, moves: JobMoves, log: Logger, rows: LogRows): Promise<void> {
  const at = progress.lastAttemptAt!;
  ctx.app.accepted.add({
    callbackId: job.callbackId,
    digits: digitsOf(job),
    acceptedAt: new Date(at),
    origin: job.request.origin,
    ...(job.request.department && { department: job.request.department }),
  });
  moves.count('placed');
  const [following, ...rest] = followingSteps(ctx, progress);
  // The log that showed the call may already show how it ended: placed and over in one write.
  if (rest.length === 0 && rows !== null && ctx.now() >= at + ctx.timing.checkAfterMs) {
    return moves.go(following, followStep(ctx, { ...job, stage: 'following', progress }, progress, rows, log));
  }
  await moves.go(following, ...rest);
}

/** The service was not reached: 'queued', retried with backoff until QUEUE_MAX_WAIT_SECONDS or closing time. */
async function unreachable(ctx: HeldContext, job: CallbackJob, progress: JobProgress, moves: JobMoves, log: Logger, err: unknown): Promise<void> {
  const { app, timing } = ctx;
  const now = ctx.now();
  const queuedAt = progress.queuedAt ?? now;
  const deadline = Math.min(queuedAt + app.config.held.queueMaxWaitSec * 1000, closesAfter(app.config, now, job.request.department) ?? now);
  if (now >= deadline) return moves.fail('upstream_unavailable');
  const tries = progress.unreachableTries + 1;
  const at = Math.min(deadline, now + backoffDelay(tries, timing.backoffBaseMs, timing.backoffMaxMs, ctx.random));
  log.warn('held call: service unreachable; trying again', { err, retryAt: new Date(at).toISOString(), tries });
  moves.count('retry');
  await moves.wait('queued', at, { ...progress, queuedAt, unreachableTries: tries });
}
