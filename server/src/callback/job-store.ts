// Callbacks the relay keeps after the request has been answered, each as one job (booked, held,
// followed, waiting to be re-dialled) carrying everything placing the call needs, with typed fields
// for what it waits for. Exactly one relay handles a job at a time: `claimDue` leases it; a dead
// owner's job is claimable after the lease, flagged `interrupted`. Contract and reasons: README.md.
import { createHash, timingSafeEqual } from 'node:crypto';
import type { Attribution, TrackingConsent } from '../contract/contract.ts';
import { forgetsNumber, isCancellable, isWaiting, stateOf, type FinalStage, type JobState, type RequestedAs, type Stage, type WaitingStage } from './stages.ts';

/** The admitted request, as placing the call later needs it. */
export interface CallbackCallRequest {
  /** The destination, E.164 (+380501234567): kept only while the job is pending (the purge), like clientIp and userAgent. */
  e164: string;
  attribution: Attribution;
  /** The visitor's consent to analytics and ads as the widget told it (tracking-consent/); absent from a widget before it. */
  trackingConsent?: TrackingConsent;
  clientIp: string;
  userAgent: string | null;
  /** The site (Origin) it came from. */
  origin: string;
  pageUrl: string | null;
  locale: string | null;
  /** The department the call is from (DEPARTMENTS_FILE); absent: the first, or the relay has none. */
  department?: string;
}

/** What a job remembers between attempts, so any relay, after any restart, goes on where the last one stopped. */
export interface JobProgress {
  /** The visitor's booked time (a booked call keeps it when its due time moves). */
  scheduledFor: number | null;
  /** When the service was first found unreachable for this call: QUEUE_MAX_WAIT_SECONDS counts from it. */
  queuedAt: number | null;
  /** Attempts that never reached the service since `queuedAt` (the backoff's exponent). */
  unreachableTries: number;
  /** When the last attempt that may have reached the service started (checking, following). */
  lastAttemptAt: number | null;
  /** Placed once more after an unknown outcome, the log having shown no call (allowed once). */
  retriedUnknown: boolean;
  /** Re-dials made (or due) so far: the next placement is re-dial number `redials`. */
  redials: number;
  /** When a waiting call was first due (office closed, a site cap): its lateness counts from it. */
  dueSince: number | null;
}

export const NO_PROGRESS: Readonly<JobProgress> = Object.freeze({
  scheduledFor: null,
  queuedAt: null,
  unreachableTries: 0,
  lastAttemptAt: null,
  retriedUnknown: false,
  redials: 0,
  dueSince: null,
});

/**
 * A new job: waiting in its first stage, or (a call now the service refused in the request, or one
 * that nothing would follow, as lifecycle.ts `start` writes it) over at once, with its outcome.
 */
export type NewCallbackJob = NewJobFields & ({ stage: WaitingStage } | { stage: FinalStage; outcome: string });

interface NewJobFields {
  callbackId: string;
  requestedAs: RequestedAs;
  /** When to look at it next, ms since the epoch. */
  dueAt: number;
  request: CallbackCallRequest;
  /** Keyed hash (HMAC with HASH_SECRET) of the E.164 number. */
  numberHash: string;
  /** For people: `+380 50 *** **67`. */
  maskedNumber: string;
  /** The cancelToken given to the visitor for a held call (only its SHA-256 is stored); null for a call placed now. */
  cancelToken: string | null;
  progress: JobProgress;
}

export interface CallbackJob {
  callbackId: string;
  requestedAs: RequestedAs;
  stage: Stage;
  /** Derived from the stage (stages.ts stateOf): pending while it waits. */
  state: JobState;
  dueAt: number;
  /** `e164`, `clientIp` and `userAgent` are null once purged (the job is over). */
  request: Omit<CallbackCallRequest, 'e164' | 'clientIp'> & { e164: string | null; clientIp: string | null };
  numberHash: string;
  maskedNumber: string;
  /** Whether a cancel token was given (held calls only). */
  cancellable: boolean;
  /** Claims so far (each claim is one attempt to handle the job). */
  attempts: number;
  leaseOwner: string | null;
  leaseExpiresAt: number | null;
  /** Set on a claim that took the job over from an owner whose lease expired: the outcome of its attempt is unknown. */
  interrupted: boolean;
  /** A final stage's detail: answered, missed or placed (ended); failed: why. */
  outcome: string | null;
  progress: JobProgress;
  createdAt: number;
  updatedAt: number;
}

/** One step of a job's life, as `advance` writes it: the next stage, and for a waiting one when it is due and what it remembers. */
/** What the call log said of an answered call: when talk began (ms) and how long it lasted (billsec). Told to listeners (the lead report), not stored with the job. */
export interface AnsweredCall {
  talkStartedAt: number;
  talkSeconds: number;
}

export type JobStep = { stage: WaitingStage; dueAt: number; progress: JobProgress } | { stage: Exclude<Stage, WaitingStage>; outcome: string; call?: AnsweredCall };

export type AddJobResult = { ok: true } | { ok: false; reason: 'number_already_scheduled' | 'duplicate_callback_id' };
/** `placed`: it is being followed, its call was placed: nothing to cancel. */
export type CancelJobResult = 'cancelled' | 'not_found' | 'wrong_token' | 'not_pending' | 'in_progress' | 'placed';

export interface CallbackJobStore {
  /** Stores a new job: pending in a waiting stage, or already over (not claimable, its number forgotten as its stage says). */
  add(job: NewCallbackJob, nowMs: number): Promise<AddJobResult>;
  /** Leases up to `limit` due jobs (earliest first) to `owner` for `leaseMs`; each claim counts an attempt. */
  claimDue(owner: string, nowMs: number, leaseMs: number, limit: number): Promise<CallbackJob[]>;
  /** Extends `owner`'s unexpired lease; false when it no longer holds the job. */
  renew(callbackId: string, owner: string, nowMs: number, leaseMs: number): Promise<boolean>;
  /**
   * Moves a job `owner` holds from stage `from` to `step`, releasing the lease: back to pending at
   * `step.dueAt`, or over. False (nothing written) unless `owner` holds the job in stage `from`,
   * or when a booking would be a second pending one for its number.
   */
  advance(callbackId: string, owner: string, from: Stage, step: JobStep, nowMs: number): Promise<boolean>;
  /**
   * Cancels a pending, cancellable job: the visitor with the job's cancelToken, or the owner (the
   * owner view, which is authorised on its own) with null. A job being handled right now cannot be
   * cancelled, nor one being followed (its call was placed).
   */
  cancel(callbackId: string, cancelToken: string | null, nowMs: number): Promise<CancelJobResult>;
  get(callbackId: string): Promise<CallbackJob | undefined>;
  /** Pending jobs by due time (the owner view). */
  listPending(limit: number): Promise<CallbackJob[]>;
  /** Jobs that failed since `sinceMs` once a relay had claimed them, newest first: leads the owner must call back by hand (the owner view; stages.ts mayCallBack). */
  listFailed(sinceMs: number, limit: number): Promise<CallbackJob[]>;
}

/** A new job as it is once added at `at` (nothing claimed yet), its number still held: what the lifecycle's listeners are told of. */
export function storedJob(job: NewCallbackJob, at: number): CallbackJob {
  const { cancelToken, ...rest } = job;
  return {
    ...rest,
    state: stateOf(job.stage),
    cancellable: cancelToken !== null,
    attempts: 0,
    leaseOwner: null,
    leaseExpiresAt: null,
    interrupted: false,
    outcome: 'outcome' in job ? job.outcome : null,
    createdAt: at,
    updatedAt: at,
  };
}

/** The request as a job keeps it in `stage`: without the number, address and user agent once the stage forgets them (stages.ts forgetsNumber). */
export const requestIn = (stage: Stage, request: CallbackJob['request']): CallbackJob['request'] =>
  forgetsNumber(stage) ? { ...request, e164: null, clientIp: null, userAgent: null } : request;

/** What a store knows of a job when it is asked to cancel it. */
export interface CancelView {
  stage: Stage;
  /** SHA-256 of the visitor's cancel token; null (or '') when none was given. */
  cancelHash: string | null;
  leaseOwner: string | null;
  leaseExpiresAt: number | null;
}

/**
 * Whether a job may be cancelled now, and if not why: the one ladder every store follows (the
 * visitor's token, then whether it still waits, whether its call was placed, whether a relay holds
 * it right now). `token` null: the owner, authorised by the owner view.
 */
export function cancelVerdict(job: CancelView | undefined, token: string | null, nowMs: number): CancelJobResult {
  if (!job) return 'not_found';
  if (token !== null && (!job.cancelHash || !cancelTokenMatches(token, job.cancelHash))) return 'wrong_token';
  if (!isWaiting(job.stage)) return 'not_pending';
  if (!isCancellable(job.stage)) return 'placed';
  if (job.leaseOwner && (job.leaseExpiresAt ?? 0) > nowMs) return 'in_progress';
  return 'cancelled';
}

export const hashCancelToken = (token: string): string => createHash('sha256').update(token, 'utf8').digest('hex');

/** Whether `token` is the one whose hash is `hash`, in constant time. */
export function cancelTokenMatches(token: string, hash: string): boolean {
  const a = Buffer.from(hashCancelToken(token), 'hex');
  const b = Buffer.from(hash, 'hex');
  return a.length === b.length && timingSafeEqual(a, b);
}
