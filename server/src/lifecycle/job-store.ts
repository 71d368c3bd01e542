// Callbacks placed later, held durably until they are: a visitor's booked time ('scheduled'), a
// request held while the service was unreachable ('queued'), and the re-dial of a missed call
// ('redial'). A job carries everything placing the call needs, since the HTTP request is long gone.
//
// Exactly one relay places a job: `claimDue` hands a due job to one owner with a lease (exclusive
// until it expires; `renew` extends it while the call is in progress). A job whose owner died keeps
// its lease until expiry; then it is claimable again, flagged `interrupted`: the dead owner may or
// may not have placed the call, so the placer must find out (the call log) before ringing again.
// At most one scheduled job per number is pending (by the number's keyed hash).
import { createHash, timingSafeEqual } from 'node:crypto';
import type { Attribution } from '../contract.ts';

export type CallbackJobKind = 'scheduled' | 'queued' | 'redial';
export type CallbackJobState = 'pending' | 'completed' | 'failed' | 'cancelled';

/** The admitted request, as placing the call later needs it. */
export interface CallbackCallRequest {
  /** The destination, E.164 (+380501234567): kept only while the job is pending (purge.ts), like clientIp and userAgent. */
  e164: string;
  attribution: Attribution;
  clientIp: string;
  userAgent: string | null;
  /** The site (Origin) it came from. */
  origin: string;
  pageUrl: string | null;
  locale: string | null;
}

export interface NewCallbackJob {
  callbackId: string;
  kind: CallbackJobKind;
  /** When to place it, ms since the epoch. */
  dueAt: number;
  request: CallbackCallRequest;
  /** Keyed hash (HMAC with HASH_SECRET) of the E.164 number. */
  numberHash: string;
  /** For people: `+380 50 *** **67`. */
  maskedNumber: string;
  /** The cancelToken given to the visitor; only its SHA-256 is stored. */
  cancelToken: string;
  /** The placer's notes (see `CallbackJob.notes`); absent for a new booking or hold. */
  notes?: string | null;
}

export interface CallbackJob {
  callbackId: string;
  kind: CallbackJobKind;
  state: CallbackJobState;
  dueAt: number;
  /** `e164`, `clientIp` and `userAgent` are null once purged (the job is over). */
  request: Omit<CallbackCallRequest, 'e164' | 'clientIp'> & { e164: string | null; clientIp: string | null };
  numberHash: string;
  maskedNumber: string;
  /** Claims so far (each claim is one attempt to place the call). */
  attempts: number;
  leaseOwner: string | null;
  leaseExpiresAt: number | null;
  /** Set on a claim that took the job over from an owner whose lease expired: the outcome of its attempt is unknown. */
  interrupted: boolean;
  /** completed: what happened (e.g. 'placed'); failed: why. */
  outcome: string | null;
  /**
   * What the placer needs to remember between attempts (callback/held-notes.ts: the last attempt
   * and what it came to, re-dials so far, when it was first queued). Opaque to the store, which
   * keeps it as given (never a full number); null until the placer writes one.
   */
  notes: string | null;
  createdAt: number;
  updatedAt: number;
}

export type AddJobResult = { ok: true } | { ok: false; reason: 'number_already_scheduled' | 'duplicate_callback_id' };
export type CancelJobResult = 'cancelled' | 'not_found' | 'wrong_token' | 'not_pending' | 'in_progress';

export interface CallbackJobStore {
  add(job: NewCallbackJob, nowMs: number): Promise<AddJobResult>;
  /** Leases up to `limit` due jobs (earliest first) to `owner` for `leaseMs`; each claim counts an attempt. */
  claimDue(owner: string, nowMs: number, leaseMs: number, limit: number): Promise<CallbackJob[]>;
  /** Extends `owner`'s unexpired lease; false when it no longer holds the job. */
  renew(callbackId: string, owner: string, nowMs: number, leaseMs: number): Promise<boolean>;
  /** The call was placed (or its outcome recorded): the job is over. False unless `owner` holds it. */
  complete(callbackId: string, owner: string, outcome: string, nowMs: number): Promise<boolean>;
  /** The call cannot be placed: the job is over. False unless `owner` holds it. */
  fail(callbackId: string, owner: string, reason: string, nowMs: number): Promise<boolean>;
  /**
   * Back to pending at `dueAt` (a backoff, a re-dial), lease released; `kind` may change (queued →
   * redial); `notes`, when given, replaces the job's notes (undefined keeps them).
   */
  reschedule(callbackId: string, owner: string, dueAt: number, nowMs: number, kind?: CallbackJobKind, notes?: string | null): Promise<boolean>;
  /**
   * Cancels a pending job: the visitor with the job's cancelToken, or the owner (the owner view,
   * which is authorised on its own) with null. A job being placed right now cannot be cancelled.
   */
  cancel(callbackId: string, cancelToken: string | null, nowMs: number): Promise<CancelJobResult>;
  get(callbackId: string): Promise<CallbackJob | undefined>;
  /** Pending jobs by due time (the owner view). */
  listPending(limit: number): Promise<CallbackJob[]>;
  /** Jobs that failed since `sinceMs`, newest first: leads the owner must call back by hand (the owner view). */
  listFailed(sinceMs: number, limit: number): Promise<CallbackJob[]>;
}

export const hashCancelToken = (token: string): string => createHash('sha256').update(token, 'utf8').digest('hex');

/** Whether `token` is the one whose hash is `hash`, in constant time. */
export function cancelTokenMatches(token: string, hash: string): boolean {
  const a = Buffer.from(hashCancelToken(token), 'hex');
  const b = Buffer.from(hash, 'hex');
  return a.length === b.length && timingSafeEqual(a, b);
}
