// What a failed callback means for the visitor. Each service failure maps to exactly one public
// code; the service's own text stays in our logs.
import { RelayError } from '../errors.js';
import {
  CallTrackingConnectError,
  CallTrackingError,
  CallTrackingHttpError,
  CallTrackingRejectedError,
  CallTrackingTimeoutError,
} from './errors.js';

export function toRelayError(err: unknown): RelayError {
  if (err instanceof CallTrackingRejectedError) {
    return new RelayError('upstream_rejected', 'The call service could not call this number. Please check it, or try again later.', { cause: err });
  }
  if (err instanceof CallTrackingConnectError) {
    return new RelayError('upstream_unavailable', 'The call service is not reachable right now. Please try again in a minute.', { retryAfter: 30, cause: err });
  }
  if (err instanceof CallTrackingHttpError && (err.status === 429 || err.status === 503)) {
    return new RelayError('upstream_unavailable', 'The call service is busy right now. Please try again in a minute.', { retryAfter: err.retryAfter ?? 30, cause: err });
  }
  if (err instanceof CallTrackingTimeoutError) {
    return new RelayError('upstream_timeout', 'The call service did not answer in time. Your call may still come; please wait a minute before trying again.', { retryAfter: 60, cause: err });
  }
  if (err instanceof CallTrackingError) {
    return new RelayError('upstream_unknown', 'We could not confirm your request with the call service. Your call may still come; please wait a minute before trying again.', { retryAfter: 60, cause: err });
  }
  return new RelayError('internal_error', 'Something went wrong on our side. Please try again.', { cause: err });
}
