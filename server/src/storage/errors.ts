// Errors of the stores behind the relay's shared state (SQLite, Redis), each with a
// literal `name` and a stable `code`, in the habit of undici's lib/core/errors.js.
//
// StoreUnavailableError means "the state could not be read or written, nothing is known": the
// relay must answer 503 temporarily_unavailable and never go on as if a limit or an
// Idempotency-Key had been checked (a call placed without them can ring a phone twice or ring a
// victim on cooldown). `toRelayError` gives the public answer.
import { RelayError } from '../contract/errors.ts';

export type StoreUnavailableReason =
  /** No connection (refused, dropped, reconnecting): the command was never sent. */
  | 'disconnected'
  /** Sent, but no answer within the store's deadline: it may or may not have run. */
  | 'timeout'
  /** The store answered with an error (loading, read-only replica, script error, …). */
  | 'error';

export class StoreUnavailableError extends Error {
  override readonly name = 'StoreUnavailableError';
  readonly code = 'store_unavailable';
  readonly reason: StoreUnavailableReason;
  /** Which store operation failed, e.g. "limits.consume" (for logs and metrics, never for visitors). */
  readonly operation: string;

  constructor(operation: string, reason: StoreUnavailableReason, cause?: unknown) {
    super(`${operation}: the shared store is unavailable (${reason})`, cause === undefined ? undefined : { cause });
    this.operation = operation;
    this.reason = reason;
  }
}

export const isStoreUnavailable = (err: unknown): err is StoreUnavailableError => err instanceof StoreUnavailableError;

/** Seconds a visitor is asked to wait: the client reconnects within ~2 s of the store's return. */
const RETRY_AFTER_SECONDS = 5;

/** The public answer for a store outage: 503 temporarily_unavailable with Retry-After. */
export function toRelayError(err: StoreUnavailableError): RelayError {
  return new RelayError('temporarily_unavailable', 'The callback service is briefly unavailable. Please try again in a few seconds.', {
    retryAfter: RETRY_AFTER_SECONDS,
    cause: err,
  });
}
