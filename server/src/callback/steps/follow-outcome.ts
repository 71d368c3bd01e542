// Following a placed call to its outcome, server-side, so a missed call is re-dialled and the owner
// hears of it even when no widget is watching. Durable: the job waits in stage 'following', so a
// restart or another relay picks it up; nothing rings while following. What each look decides:
// this folder's README ("Following a placed call").
import type { CallbackDeps } from '../deps.ts';
import type { Config } from '../../config/index.ts';
import type { Logger } from '../../log/index.ts';
import { outcomeOfRow } from '../progress/call-outcome.ts';
import { NO_PROGRESS, type CallbackJob, type JobProgress, type JobStep, type NewCallbackJob } from '../job-store.ts';
import { digitsOf, rowsOf, waitStep, type HeldContext, type LogRows } from './held-context.ts';
import { heldTiming, openAtOrAfter } from './held-timing.ts';

/** Whether a placed call is worth following: its missed outcome would be told to a lead webhook or a person, counted in the digest, or re-dialled. */
export const followWanted = (app: Pick<CallbackDeps, 'delivery' | 'notifier' | 'config'>, progress: JobProgress): boolean =>
  app.delivery !== null || app.notifier?.followsOutcomes === true || progress.redials < app.config.held.redialAttempts;

/** What a call the service just took at `at` remembers: only what following and re-dialling need. */
export const placedProgress = (progress: JobProgress, at: number): JobProgress => ({
  ...NO_PROGRESS,
  lastAttemptAt: at,
  redials: progress.redials,
  scheduledFor: progress.scheduledFor,
});

/** What follows 'following' at once: nothing while following would come to something, else the end (placed, its outcome not read). */
const endWhenUnwanted = (app: Pick<CallbackDeps, 'delivery' | 'notifier' | 'config'>, progress: JobProgress): JobStep[] =>
  followWanted(app, progress) ? [] : [{ stage: 'ended', outcome: 'placed' }];

/** After a placement the service took (`progress` from placedProgress): follow it, or end the job when nothing would come of following. */
export function followingSteps(ctx: HeldContext, progress: JobProgress): [JobStep, ...JobStep[]] {
  return [waitStep(ctx, 'following', progress.lastAttemptAt! + ctx.timing.checkAfterMs, progress), ...endWhenUnwanted(ctx.app, progress)];
}

/**
 * For the request path: the job of a call the service took at `placedAt` (`job` as heldJob() builds
 * it), with what lifecycle.start writes of it: following, or following then ended in the same write
 * when nothing would come of following (no lead webhook, no notification that follows outcomes, no
 * re-dial left), so its number is forgotten at once.
 */
export function placedNowJob(app: Pick<CallbackDeps, 'delivery' | 'notifier' | 'config'>, job: NewCallbackJob, placedAt: number): [NewCallbackJob, ...JobStep[]] {
  const progress = placedProgress(NO_PROGRESS, placedAt);
  return [{ ...job, stage: 'following', dueAt: placedAt + heldTiming(app.config).checkAfterMs, progress }, ...endWhenUnwanted(app, progress)];
}

/**
 * When a call missed now is re-dialled: REDIAL_DELAY_SECONDS later, moved into office hours, or
 * null when no office hours come soon enough. (Whether re-dials are left is the caller's question.)
 * The progress route asks it too, for a missed call whose log the runner has not read yet.
 */
export function redialDueAt(config: Config, now: number, department: string | undefined): number | null {
  return openAtOrAfter(config, now + config.held.redialDelaySec * 1000, heldTiming(config).maxLateMs, department);
}

/** One look at a followed call's outcome (`progress` is the following job's): the next step. */
export function followStep(ctx: HeldContext, job: CallbackJob, progress: JobProgress, rows: LogRows, log: Logger): JobStep {
  const { app, timing } = ctx;
  const now = ctx.now();
  const count = (outcome: string) => app.metrics.heldCalls.inc({ kind: 'following', outcome });
  const placedAt = progress.lastAttemptAt!;
  if (rows === null) return waitStep(ctx, 'following', now + timing.logRetryMs, progress);
  const row = rowsOf(rows, digitsOf(job), placedAt)[0];
  const final = row ? outcomeOfRow(row) : null;
  if (final === 'completed') {
    count('answered');
    // When talk began and how long it lasted: the lead report's answer time and conversations.
    const call = { talkStartedAt: row!.calldate.getTime() + Math.max(0, row!.duration - row!.billsec) * 1000, talkSeconds: row!.billsec };
    return { stage: 'answered', outcome: 'answered', call };
  }
  if (final === 'missed') {
    if (progress.redials < app.config.held.redialAttempts) {
      const at = redialDueAt(app.config, now, job.request.department);
      if (at !== null) {
        log.info('missed call: re-dial due', { redial: progress.redials + 1, dueAt: new Date(at).toISOString() });
        count('redial');
        return waitStep(ctx, 'redial', at, { ...NO_PROGRESS, redials: progress.redials + 1, scheduledFor: progress.scheduledFor });
      }
      log.info('missed call: no office hours for a re-dial soon enough');
    }
    count('missed');
    return { stage: 'missed', outcome: 'missed' };
  }
  if (now - placedAt > timing.followGiveUpMs) {
    log.info('placed call: outcome never shown in the call log; not re-dialled');
    return { stage: 'ended', outcome: 'placed' };
  }
  return waitStep(ctx, 'following', now + timing.followPollMs, progress);
}
