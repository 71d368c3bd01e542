// Following a placed call to its outcome, server-side, so a missed call is re-dialled and the owner
// hears of it even when no widget is watching. Durable: the job stays pending while it is followed
// (kind 'redial', notes.last = {at, result: 'placed'}, due when the call log should next be read),
// so a restart, or another relay, picks the follow up where it stopped; nothing rings while
// following. Each look reads the call log (the runner reads it once per batch):
//   a final row that talked        → completed 'answered'
//   a final row that did not       → callback.missed (occurrence = re-dials so far); a re-dial is
//                                    due after REDIAL_DELAY_SECONDS, moved into office hours, while
//                                    REDIAL_ATTEMPTS allow (else completed 'missed')
//   no row, or IN PROGRESS         → look again later; after followGiveUpMs the call is left alone
//                                    (completed 'placed'): a call whose outcome is unknown is never
//                                    re-dialled.
// A call placed at once by the request path is followed the same way: followPlacedCall adds the job.
import type { AppContext } from '../app-context.ts';
import type { Config } from '../config/index.ts';
import type { Logger } from '../log/index.ts';
import { outcomeOfRow } from '../outcome/call-outcome.ts';
import type { CallbackJob, NewCallbackJob } from './job-store.ts';
import { digitsOf, rowsOf, type HeldContext, type JobMoves, type LogRows } from './held-context.ts';
import { writeNotes, type HeldNotes } from './held-notes.ts';
import { heldTiming, openAtOrAfter } from './held-timing.ts';

/** Whether a placed call is worth following: its missed outcome would be told to a lead webhook, or re-dialled. */
export const followWanted = (app: AppContext, notes: HeldNotes): boolean => app.delivery !== null || (notes.redials ?? 0) < app.config.held.redialAttempts;

/** Notes of a call the service just took at `at`: only what following and re-dialling need. */
export const placedNotes = (notes: HeldNotes, at: number): HeldNotes => ({
  last: { at, result: 'placed' },
  ...(notes.redials !== undefined && { redials: notes.redials }),
  ...(notes.scheduledFor !== undefined && { scheduledFor: notes.scheduledFor }),
});

/** After a placement the service took: follow it (the job stays pending as 'redial'), or finish the job when nothing would come of following. */
export async function startFollowing(ctx: HeldContext, notes: HeldNotes, moves: JobMoves): Promise<void> {
  if (!followWanted(ctx.app, notes)) return moves.complete('placed');
  await moves.reschedule(notes.last!.at + ctx.timing.checkAfterMs, notes, 'redial');
}

/**
 * When a call missed now is re-dialled: REDIAL_DELAY_SECONDS later, moved into office hours, or
 * null when no office hours come soon enough. (Whether re-dials are left is the caller's question.)
 * The progress route asks it too, for a missed call whose log the runner has not read yet.
 */
export function redialDueAt(config: Config, now: number): number | null {
  return openAtOrAfter(config, now + config.held.redialDelaySec * 1000, heldTiming(config).maxLateMs);
}

/** One look at a followed call's outcome. */
export async function followOutcome(ctx: HeldContext, job: CallbackJob, notes: HeldNotes, rows: LogRows, moves: JobMoves, log: Logger): Promise<void> {
  const { app, timing } = ctx;
  const now = ctx.now();
  const placedAt = notes.last!.at;
  if (rows === null) return moves.reschedule(now + timing.logRetryMs, notes);
  const row = rowsOf(rows, digitsOf(job), placedAt)[0];
  const final = row ? outcomeOfRow(row) : null;
  if (final === 'completed') {
    moves.count('answered');
    return moves.complete('answered');
  }
  if (final === 'missed') {
    const redials = notes.redials ?? 0;
    await moves.announce('callback.missed', notes, { occurrence: redials, reason: 'no_answer' });
    if (redials < app.config.held.redialAttempts) {
      const at = redialDueAt(app.config, now);
      if (at !== null) {
        log.info('missed call: re-dial due', { redial: redials + 1, dueAt: new Date(at).toISOString() });
        moves.count('redial');
        return moves.reschedule(at, { redials: redials + 1, ...(notes.scheduledFor !== undefined && { scheduledFor: notes.scheduledFor }) }, 'redial');
      }
      log.info('missed call: no office hours for a re-dial soon enough');
    }
    moves.count('missed');
    return moves.complete('missed');
  }
  if (now - placedAt > timing.followGiveUpMs) {
    log.info('placed call: outcome never shown in the call log; not re-dialled');
    return moves.complete('placed');
  }
  await moves.reschedule(now + timing.followPollMs, notes);
}

/**
 * For the request path: a call the service took just now (`placedAt`), placed without a job. Adds
 * the job that follows it (the number is kept only while it is followed; nothing is stored when
 * neither a lead webhook nor a re-dial would use it). `job` is the call as heldJob() builds it;
 * its kind and due time are replaced. Never throws: a lost follow costs a re-dial, not the call.
 */
export async function followPlacedCall(app: AppContext, job: NewCallbackJob, placedAt: number): Promise<void> {
  const notes = placedNotes({ redials: 0 }, placedAt);
  if (!followWanted(app, notes)) return;
  try {
    const added = await app.stores.jobs.add({ ...job, kind: 'redial', dueAt: placedAt + heldTiming(app.config).checkAfterMs, notes: writeNotes(notes) }, app.now().getTime());
    if (!added.ok) app.log.warn('placed call not followed', { callbackId: job.callbackId, reason: added.reason });
  } catch (err) {
    app.log.error('placed call not followed', { callbackId: job.callbackId, err });
  }
}
