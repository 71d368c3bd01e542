// A callback's life, in one place. Every other module asks this one which stage comes next is
// allowed; the job stores write a stage only through `advance`, with the stage it expects to leave
// (a lost race changes nothing).
//
//               ┌────────────── (booked) ──────────────┐
//   request ───▶│ scheduled ──▶ queued ◀─┐             │
//               │     │           │  └────┘ (unreachable: backoff)
//               │     ▼           ▼                     │
//   placed now ─┼──▶ following ◀── checking ◀── (outcome unknown after an attempt)
//               │     │  ▲           │                  │
//               │     │  └── redial ◀┘ (missed, re-dials left; placing it again)
//               │     ▼                                 │
//               │  answered · missed · ended · failed · cancelled   (final)
//               └───────────────────────────────────────┘
//
// Waiting stages (the job is pending, and says what it is waiting for):
//   scheduled  the visitor's booked time (or the office's next opening after it)
//   queued     the service was provably not reached; retried with backoff until QUEUE_MAX_WAIT_SECONDS
//   checking   an attempt may have reached the service (a timeout, or a relay died holding it):
//              the call log decides once the ring time has passed; never a blind second call
//   following  the service took the call; its outcome is read from the call log. Nothing rings.
//   redial     nobody answered: the call is placed again at its due time (REDIAL_ATTEMPTS)
// Final stages: answered (talked), missed (nobody answered, no re-dial left), ended (placed, its
// outcome never shown in the log: left alone), failed (could not be placed), cancelled.

export const WAITING_STAGES = ['scheduled', 'queued', 'checking', 'following', 'redial'] as const;
export const FINAL_STAGES = ['answered', 'missed', 'ended', 'failed', 'cancelled'] as const;

export type WaitingStage = (typeof WAITING_STAGES)[number];
export type FinalStage = (typeof FINAL_STAGES)[number];
export type Stage = WaitingStage | FinalStage;

/** How the lead came in: what the visitor asked for, or the owner's "call back now" (owner). Only held calls (scheduled, queued) have a cancel token. */
export type RequestedAs = 'now' | 'scheduled' | 'queued' | 'owner';

/** Where each stage may go next. A call being followed cannot be cancelled: it has been placed. */
const NEXT: Record<Stage, readonly Stage[]> = {
  scheduled: ['scheduled', 'queued', 'checking', 'following', 'failed', 'cancelled'],
  queued: ['queued', 'checking', 'following', 'failed', 'cancelled'],
  checking: ['checking', 'queued', 'following', 'failed', 'cancelled'],
  following: ['following', 'redial', 'answered', 'missed', 'ended'],
  redial: ['redial', 'queued', 'checking', 'following', 'failed', 'cancelled'],
  answered: [],
  missed: [],
  ended: [],
  failed: [],
  cancelled: [],
};

/** The stages a new job may start in: a booking, a held call, or a call the service took at once. */
// The owner's "call back now" is due at once and waits like a booking (office hours, the number's limits at placement).
export const INITIAL_STAGES: Readonly<Record<RequestedAs, WaitingStage>> = { scheduled: 'scheduled', queued: 'queued', now: 'following', owner: 'scheduled' };

export const isWaiting = (stage: Stage): stage is WaitingStage => (WAITING_STAGES as readonly Stage[]).includes(stage);

export const canMove = (from: Stage, to: Stage): boolean => NEXT[from].includes(to);

/** The store's coarse state of a stage: pending while it waits, else how it ended. */
export type JobState = 'pending' | 'completed' | 'failed' | 'cancelled';

export function stateOf(stage: Stage): JobState {
  if (isWaiting(stage)) return 'pending';
  if (stage === 'failed' || stage === 'cancelled') return stage;
  return 'completed';
}

export class StageTransitionError extends Error {
  override readonly name = 'StageTransitionError';
  readonly code = 'stage_transition';
  constructor(from: Stage, to: Stage) {
    super(`a callback cannot go from ${from} to ${to}`);
  }
}
