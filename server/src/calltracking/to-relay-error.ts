// What a failed callback means for the visitor. Each service failure maps to exactly one public
// code, and the five outcomes stay distinct: refused by the service (upstream_rejected),
// unavailable (nothing happened; try again), timeout and unknown (the call may still come; do not
// try again at once). The service's own text stays in our logs.
import { RelayError } from '../contract/errors.ts';
import { CallTrackingConnectError, CallTrackingError, CallTrackingHttpError, CallTrackingRejectedError, CallTrackingTimeoutError } from './errors.ts';

/** The service refused *us* (Auth-key, project): nothing the visitor can fix; the operator must. */
export const refusesOurCredentials = (err: unknown): boolean => err instanceof CallTrackingRejectedError && (err.httpStatus === 401 || err.httpStatus === 403);

export function toRelayError(err: unknown): RelayError {
  if (refusesOurCredentials(err)) {
    return new RelayError('upstream_unavailable', 'The call service is not available right now. Please try again later.', { retryAfter: 300, cause: err });
  }
  if (err instanceof CallTrackingRejectedError) {
    return new RelayError('upstream_rejected', 'The call service could not call this number. Please check it, or try again later.', { cause: err });
  }
  if (err instanceof CallTrackingConnectError) {
    return new RelayError('upstream_unavailable', 'The call service is not reachable right now. Please try again in a minute.', { retryAfter: 30, cause: err });
  }
  if (err instanceof CallTrackingHttpError && (err.status === 429 || err.status === 503)) {
    // Ringostat-style gateways answer 429/503 before doing anything: the call was not placed.
    return new RelayError('upstream_unavailable', 'The call service is busy right now. Please try again in a minute.', {
      retryAfter: Math.min(err.retryAfter ?? 30, 3600),
      cause: err,
    });
  }
  if (err instanceof CallTrackingTimeoutError) {
    return new RelayError('upstream_timeout', 'The call service did not answer in time. Your call may still come; please wait a minute before trying again.', {
      retryAfter: 60,
      cause: err,
    });
  }
  if (err instanceof CallTrackingError) {
    return new RelayError('upstream_unknown', 'We could not confirm your request with the call service. Your call may still come; please wait a minute before trying again.', {
      retryAfter: 60,
      cause: err,
    });
  }
  return new RelayError('internal_error', 'Something went wrong on our side. Please try again.', { cause: err });
}
