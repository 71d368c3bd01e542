// What GET /api/callback/<requestId> says of a job, by its stage (stages.ts): booked (scheduled,
// with its time), held while the service is unreachable (queued), waiting to be re-dialled (redial,
// with its time), placed and followed (accepted), or over (completed, missed, failed, cancelled,
// unknown). A placed call's live steps (agent ringing, ringing you, connected) come from the
// accepted calls instead (progress-tracker.ts); this is the answer when no relay follows it live.
import { redialDueAt } from '../steps/follow-outcome.ts';
import type { Config } from '../../config/index.ts';
import type { CallbackProgress } from '../../contract/contract.ts';
import { PUBLIC_OUTCOME } from '../stages.ts';
import type { CallbackJob } from '../job-store.ts';
import type { AcceptedCall } from './accepted-calls.ts';

/** How often the widget may ask about a call that is waiting: a booked one changes at its time at the earliest. */
const WAITING_POLL_MS = 15_000;
const QUEUED_POLL_MS = 5_000;

export function progressOfJob(job: CallbackJob): CallbackProgress {
  const { department } = job.request;
  const progress = progressByStage(job);
  return department ? { ...progress, department } : progress;
}

function progressByStage(job: CallbackJob): CallbackProgress {
  const requestId = job.callbackId;
  const at = new Date(job.dueAt).toISOString();
  switch (job.stage) {
    case 'answered':
    case 'missed':
    case 'ended':
    case 'failed':
    case 'cancelled':
      return { requestId, outcome: PUBLIC_OUTCOME[job.stage] };
    // Placed and followed; or an attempt whose outcome the call log is about to tell: it may be
    // ringing now, so the widget keeps asking (a retry already decided is held, as queued).
    case 'following':
      return { requestId, outcome: 'accepted', pollAfterMs: QUEUED_POLL_MS };
    case 'checking':
      return { requestId, outcome: job.progress.lastAttemptAt === null ? 'queued' : 'accepted', pollAfterMs: QUEUED_POLL_MS };
    case 'queued':
      return { requestId, outcome: 'queued', pollAfterMs: QUEUED_POLL_MS };
    case 'scheduled':
    case 'redial':
      return { requestId, outcome: job.stage, scheduledFor: at, pollAfterMs: WAITING_POLL_MS };
  }
}

/**
 * A placed call the tracker has just seen missed, while its job (following it) has not read the
 * call log yet: the re-dial the job runner is about to decide (follow-outcome.ts), or null when
 * there is none to come (no re-dials left, or no office hours soon enough). Without it, the widget
 * would take the missed call as final, show "we could not reach you" and stop asking, moments
 * before the relay books the re-dial.
 */
export function redialToCome(job: CallbackJob, config: Config, now: number): CallbackProgress | null {
  if (job.stage !== 'following' || job.progress.redials >= config.held.redialAttempts) return null;
  // The runner decides when it reads the log: at the job's due time, not before.
  const at = redialDueAt(config, Math.max(now, job.dueAt), job.request.department);
  return at === null ? null : { requestId: job.callbackId, outcome: 'redial', scheduledFor: new Date(at).toISOString(), pollAfterMs: WAITING_POLL_MS };
}

/**
 * A call the service took, as the relay that placed it keeps it (accepted-calls.ts), rebuilt from
 * the job that follows it: with several relays sharing one store, any of them can then follow its
 * steps (agent ringing, ringing you, connected) from the shared SIP status and call log, not only
 * the one that placed it. Null when the job is not following a placed call.
 */
export function acceptedCallOfJob(job: CallbackJob): AcceptedCall | null {
  const placedAt = job.progress.lastAttemptAt;
  if (job.stage !== 'following' || job.request.e164 === null || placedAt === null) return null;
  return {
    callbackId: job.callbackId,
    digits: job.request.e164.replace(/^\+/, ''),
    acceptedAt: new Date(placedAt),
    origin: job.request.origin,
    ...(job.request.department && { department: job.request.department }),
  };
}
