// A callback's life, in one place: every stage name, where each stage may go next (NEXT), and every
// question the rest of the relay asks of a stage (final? cancellable? may the owner call it back?
// does it forget the number? its public outcome, how the report ends it, what a person and the lead
// webhook are told). Other modules ask these instead of naming stages; the job stores write a stage
// only through `advance` (lifecycle.ts), with the stage they expect to leave (a lost race changes nothing).
// docs/architecture.md ("A callback's life") draws NEXT and says what each stage waits for.
import type { NotifyEvent } from '../config/notify.ts';
import type { CallOutcome } from '../contract/contract.ts';
import type { LeadEventType } from '../webhooks/events.ts';
import type { TallyOutcome } from '../webhooks/notify/lead-tally.ts';

/**
 * Waiting stages (the job is pending, and says what it is waiting for):
 *   scheduled  the visitor's booked time (or the office's next opening after it)
 *   queued     the service was provably not reached; retried with backoff until QUEUE_MAX_WAIT_SECONDS
 *   checking   an attempt may have reached the service (a timeout, or a relay died holding it):
 *              the call log decides once the ring time has passed; never a blind second call
 *   following  the service took the call; its outcome is read from the call log. Nothing rings.
 *   redial     nobody answered: the call is placed again at its due time (REDIAL_ATTEMPTS)
 */
export const WAITING_STAGES = ['scheduled', 'queued', 'checking', 'following', 'redial'] as const;
/** answered (talked), missed (no re-dial left), ended (placed, its outcome never shown in the log), failed (could not be placed), cancelled. */
export const FINAL_STAGES = ['answered', 'missed', 'ended', 'failed', 'cancelled'] as const;

export type WaitingStage = (typeof WAITING_STAGES)[number];
export type FinalStage = (typeof FINAL_STAGES)[number];
export type Stage = WaitingStage | FinalStage;
export const STAGES: readonly Stage[] = [...WAITING_STAGES, ...FINAL_STAGES];

/** How the lead came in: what the visitor asked for, or the owner's "call back now" (owner). Only held calls (scheduled, queued) have a cancel token. */
export type RequestedAs = 'now' | 'scheduled' | 'queued' | 'owner';

/** Where each stage may go next (itself: waiting on). A call being followed cannot be cancelled: it has been placed. */
const NEXT: Readonly<Record<Stage, readonly Stage[]>> = {
  // office closed or a site cap (waits on) · unreachable · unknown outcome · placed · cannot be placed · cancelled
  scheduled: ['scheduled', 'queued', 'checking', 'following', 'failed', 'cancelled'],
  queued: ['queued', 'checking', 'following', 'failed', 'cancelled'],
  // the log unreadable (waits on) · a retry decided while the service is down · found placed · a second unknown
  checking: ['checking', 'queued', 'following', 'failed', 'cancelled'],
  // still going · missed with re-dials left · talked · missed, none left · no outcome in the log after 20 minutes
  following: ['following', 'redial', 'answered', 'missed', 'ended'],
  redial: ['redial', 'queued', 'checking', 'following', 'failed', 'cancelled'],
  answered: [],
  missed: [],
  ended: [],
  failed: [],
  cancelled: [],
};

/** The waiting stage a new job starts in: a booking, a held call, or a call the service took at once. */
// The owner's "call back now" is due at once and waits like a booking (office hours, the number's limits at placement).
export const INITIAL_STAGES: Readonly<Record<RequestedAs, WaitingStage>> = { scheduled: 'scheduled', queued: 'queued', now: 'following', owner: 'scheduled' };

/**
 * Whether a new job may start in `stage`: its waiting first stage, or for a call now the service
 * refused in the request itself, failed. (A call now that nothing would follow starts following and
 * ends in the same write: lifecycle.ts `start` with a path.)
 */
export const mayStartIn = (requestedAs: RequestedAs, stage: Stage): boolean => stage === INITIAL_STAGES[requestedAs] || (requestedAs === 'now' && stage === 'failed');

export const isWaiting = (stage: Stage): stage is WaitingStage => (WAITING_STAGES as readonly Stage[]).includes(stage);
export const isFinal = (stage: Stage): stage is FinalStage => !isWaiting(stage);

export const canMove = (from: Stage, to: Stage): boolean => NEXT[from].includes(to);
/** The stages `stage` may go to next. */
export const nextStages = (stage: Stage): readonly Stage[] => NEXT[stage];

/** Whether a job in `stage` may still be cancelled (by the visitor's token or the owner): it waits, and its call has not been placed. */
export const isCancellable = (stage: Stage): boolean => canMove(stage, 'cancelled');
export const CANCELLABLE_STAGES: readonly WaitingStage[] = WAITING_STAGES.filter(isCancellable);

/** The store's coarse state of a stage: pending while it waits, else how it ended. */
export type JobState = 'pending' | 'completed' | 'failed' | 'cancelled';

export function stateOf(stage: Stage): JobState {
  if (isWaiting(stage)) return 'pending';
  if (stage === 'failed' || stage === 'cancelled') return stage;
  return 'completed';
}

/**
 * Whether a job forgets the visitor's number, address and user agent in the write that moves it to
 * `stage`: once it can no longer place a call. Every store carries this out in that same write (the
 * owner's "call back now" keeps a missed or failed lead's number apart: owner/keep-callback-numbers.ts).
 */
export const forgetsNumber = (stage: Stage): boolean => isFinal(stage);

/**
 * Whether a step is a job's start in a final stage: a call now the service refused, whose visitor
 * heard so in the answer to the request and may simply try again. The report counts it; no person
 * is told, the digest leaves it out, and the owner is not asked to call it back (mayCallBack).
 */
export const answeredInRequest = (from: Stage | null, to: Stage): boolean => from === null && isFinal(to);

/**
 * Whether the owner's "call back now" applies to a lead that ended in `stage` after `claims` claims:
 * nobody answered, or it could not be placed, once a relay had taken the job on. A job that began
 * failed (answeredInRequest) was never claimed.
 */
export const mayCallBack = (stage: Stage, claims: number): boolean => (stage === 'missed' || stage === 'failed') && claims > 0;

/** The public name of each final stage (`GET /api/callback/<id>`): talked is `completed`, placed with no outcome shown is `unknown`. */
export const PUBLIC_OUTCOME: Readonly<Record<FinalStage, CallOutcome>> = { answered: 'completed', missed: 'missed', ended: 'unknown', failed: 'failed', cancelled: 'cancelled' };

/** How the lead report ends a lead that moved to `stage` (the final stage itself), or null while it goes on. */
export const reportEnd = (stage: Stage): FinalStage | null => (isFinal(stage) ? stage : null);

/** Whether a step to `to` is the service taking the call (the report's "placed"). */
export const isPlacement = (to: Stage): boolean => to === 'following';

/** What a person is told of a step (NOTIFY_ON picks among them): a booking, a hold, a final miss, a failure; null for the rest. */
export function noticeKind(from: Stage | null, to: Stage): NotifyEvent | null {
  if (from === null) return to === 'scheduled' || to === 'queued' ? to : null;
  if (to === 'missed' || to === 'failed') return to;
  return null;
}

/** A lead's standing in the daily digest once it moved to `stage`: pending while it waits (a re-dial included). */
export function digestStanding(stage: Stage): TallyOutcome {
  if (stage === 'answered' || stage === 'missed' || stage === 'failed') return stage;
  return isFinal(stage) ? 'other' : 'pending';
}

/**
 * The lead webhook's event of a step, or null when the CRM is not told of it: a booking (not the
 * owner's own call-back), a hold, a placement by the relay (a call the service took at once is in
 * its call log already), a miss (with or without a re-dial to come), a failure, a cancel.
 */
export function leadEventType(from: Stage | null, to: Stage, requestedAs: RequestedAs): LeadEventType | null {
  if (from === null) {
    if (to === 'scheduled' && requestedAs !== 'owner') return 'callback.scheduled';
    return to === 'queued' ? 'callback.queued' : null;
  }
  if (from !== 'following' && to === 'following') return 'callback.placed';
  if (from === 'following' && (to === 'redial' || to === 'missed')) return 'callback.missed';
  if (to === 'failed') return 'callback.failed';
  return to === 'cancelled' ? 'callback.cancelled' : null;
}

export class StageTransitionError extends Error {
  override readonly name = 'StageTransitionError';
  readonly code = 'stage_transition';
  constructor(from: Stage | null, to: Stage) {
    super(from === null ? `a callback cannot start in ${to}` : `a callback cannot go from ${from} to ${to}`);
  }
}
