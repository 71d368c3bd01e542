// What the job runner remembers about a held call between attempts, kept with the job
// (CallbackJob.notes, opaque to the store) so that any relay, after any restart, continues where the
// last one stopped. No full number is ever in it.
//
// The stages of a held call, read from its notes:
//   waiting   no `last`: the next claim places the call (after office hours and limits).
//   checking  `last.result` 'unknown', or the claim is `interrupted` (the previous owner died
//             holding it): the service may have placed the call, so the call log decides first.
//   following `last.result` 'placed': the service took the call; the next claims read its outcome
//             in the call log (a missed call is re-dialled, REDIAL_ATTEMPTS times). Nothing rings.
import type { CallbackJob } from './job-store.ts';

export interface HeldNotes {
  /** The last attempt that may have reached the service: when it started, and what it came to. */
  last?: { at: number; result: 'placed' | 'unknown' };
  /** Placed once more after an unknown outcome, the log having shown no call (allowed once). */
  retriedUnknown?: boolean;
  /** Re-dials made (or due) so far: the next placement is re-dial number `redials`. */
  redials?: number;
  /** When the service was first found unreachable for this call (QUEUE_MAX_WAIT_SECONDS counts from it). */
  queuedAt?: number;
  /** Attempts that never reached the service since `queuedAt` (the backoff's exponent). */
  unreachable?: number;
  /** The visitor's booked time, for a call that was scheduled. */
  scheduledFor?: number;
  /** When a re-dial was first due, while it waits (office closed, a site cap): its lateness counts from it. */
  dueSince?: number;
}

export function readNotes(job: Pick<CallbackJob, 'notes'>): HeldNotes {
  if (!job.notes) return {};
  try {
    const parsed = JSON.parse(job.notes) as unknown;
    return parsed && typeof parsed === 'object' ? (parsed as HeldNotes) : {};
  } catch {
    return {};
  }
}

export const writeNotes = (notes: HeldNotes): string => JSON.stringify(notes);

/**
 * Whether the job is following a call the service took (GET progress: the call was placed; its
 * live progress comes from app.accepted when this relay placed it, else it is 'accepted').
 */
export const isFollowing = (job: Pick<CallbackJob, 'notes' | 'state'>): boolean => job.state === 'pending' && readNotes(job).last?.result === 'placed';
