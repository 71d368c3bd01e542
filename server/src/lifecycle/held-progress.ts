// The progress of a call held for later, read from its job: booked (scheduled, with its time),
// held while the service is unreachable (queued), waiting to be re-dialled (redial, with its time),
// or over without a call the relay can follow (failed, cancelled). A placed call is followed
// through the accepted calls instead (progress-tracker.ts).
import { isFollowing, readNotes } from './held-notes.ts';
import { redialDueAt } from './follow-outcome.ts';
import type { Config } from '../config/index.ts';
import type { CallbackProgress } from '../contract.ts';
import type { CallbackJob } from './job-store.ts';
import type { AcceptedCall } from '../outcome/accepted-calls.ts';

/** How often the widget may ask about a call that is waiting: a booked one changes at its time at the earliest. */
const WAITING_POLL_MS = 15_000;
const QUEUED_POLL_MS = 5_000;

export function progressOfJob(job: CallbackJob): CallbackProgress {
  const requestId = job.callbackId;
  if (job.state === 'cancelled') return { requestId, outcome: 'cancelled' };
  if (job.state === 'failed') return { requestId, outcome: 'failed' };
  // Placed, but no longer among the calls this relay follows (a restart, or another relay placed
  // it): what the job runner read in the call log, when it did (follow-outcome.ts).
  if (job.state === 'completed') return { requestId, outcome: job.outcome === 'answered' ? 'completed' : job.outcome === 'missed' ? 'missed' : 'unknown' };
  // Placed, and followed by the job runner until the call log shows how it ended.
  if (isFollowing(job)) return { requestId, outcome: 'accepted', pollAfterMs: QUEUED_POLL_MS };
  if (job.kind === 'queued') return { requestId, outcome: 'queued', pollAfterMs: QUEUED_POLL_MS };
  return { requestId, outcome: job.kind === 'redial' ? 'redial' : 'scheduled', scheduledFor: new Date(job.dueAt).toISOString(), pollAfterMs: WAITING_POLL_MS };
}

/**
 * A placed call the tracker has just seen missed, while its job (following it) has not read the
 * call log yet: the re-dial the job runner is about to decide (follow-outcome.ts), or null when
 * there is none to come (no re-dials left, or no office hours soon enough). Without it, the widget
 * would take the missed call as final, show "we could not reach you" and stop asking, moments
 * before the relay books the re-dial.
 */
export function redialToCome(job: CallbackJob, config: Config, now: number): CallbackProgress | null {
  if (!isFollowing(job) || (readNotes(job).redials ?? 0) >= config.held.redialAttempts) return null;
  // The runner decides when it reads the log: at the job's due time, not before.
  const at = redialDueAt(config, Math.max(now, job.dueAt));
  return at === null ? null : { requestId: job.callbackId, outcome: 'redial', scheduledFor: new Date(at).toISOString(), pollAfterMs: WAITING_POLL_MS };
}

/**
 * A call the service took, as the relay that placed it keeps it (accepted-calls.ts), rebuilt from
 * the job that follows it: with several relays sharing one store, any of them can then follow its
 * steps (agent ringing, ringing you, connected) from the shared SIP status and call log, not only
 * the one that placed it. Null when the job is not following a placed call.
 */
export function acceptedCallOfJob(job: CallbackJob): AcceptedCall | null {
  const placedAt = readNotes(job).last?.at;
  if (!isFollowing(job) || job.request.e164 === null || placedAt === undefined) return null;
  return { callbackId: job.callbackId, digits: job.request.e164.replace(/^\+/, ''), acceptedAt: new Date(placedAt), origin: job.request.origin };
}
