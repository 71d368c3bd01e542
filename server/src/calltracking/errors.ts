// Every way a call to the service can fail, in one file (after undici's lib/core/errors.js): each
// class has a literal `name` and a stable `code`. What matters most for a callback is whether the
// request could have reached the service: only CallTrackingConnectError proves it did not, so only
// it may be retried (a retry after any other failure could ring a phone twice).
export abstract class CallTrackingError extends Error {
  abstract readonly code: string;
  /** True only when the request provably never left this process. */
  readonly neverSent: boolean = false;
}

/** The TCP connection never opened (refused, unreachable, DNS, connect timeout). Safe to retry. */
export class CallTrackingConnectError extends CallTrackingError {
  override readonly name = 'CallTrackingConnectError';
  readonly code = 'CT_CONNECT';
  override readonly neverSent = true;
}

/** The connection opened and then broke (reset, closed early): the service may have acted. */
export class CallTrackingTransportError extends CallTrackingError {
  override readonly name = 'CallTrackingTransportError';
  readonly code = 'CT_TRANSPORT';
}

/** No complete answer within the time limit: the service may have acted. */
export class CallTrackingTimeoutError extends CallTrackingError {
  override readonly name = 'CallTrackingTimeoutError';
  readonly code = 'CT_TIMEOUT';
  readonly timeoutMs: number;

  constructor(timeoutMs: number) {
    super(`the service did not answer within ${timeoutMs} ms`);
    this.timeoutMs = timeoutMs;
  }
}

/** An HTTP status the service uses for failure, without a JSON-RPC error object. */
export class CallTrackingHttpError extends CallTrackingError {
  override readonly name = 'CallTrackingHttpError';
  readonly code = 'CT_HTTP_STATUS';
  readonly status: number;
  /** Seconds from Retry-After, when the service sent one. */
  readonly retryAfter?: number;

  constructor(status: number, retryAfter?: number) {
    super(`the service answered HTTP ${status}`);
    this.status = status;
    this.retryAfter = retryAfter;
  }
}

/** The answer was not what the interface promises (HTML, cut-off JSON, wrong shape). */
export class CallTrackingInvalidResponseError extends CallTrackingError {
  override readonly name = 'CallTrackingInvalidResponseError';
  readonly code = 'CT_INVALID_RESPONSE';
}

/** The service refused: a JSON-RPC error object (HTTP 200, or the documented 400/403) or a 4xx with a message. */
export class CallTrackingRejectedError extends CallTrackingError {
  override readonly name = 'CallTrackingRejectedError';
  readonly code = 'CT_REJECTED';
  readonly httpStatus: number;
  readonly rpcCode: number | null;
  /** The service's own text; for logs only, never for visitors. */
  readonly serviceMessage: string;

  constructor(httpStatus: number, rpcCode: number | null, serviceMessage: string) {
    super(`the service refused (HTTP ${httpStatus}${rpcCode === null ? '' : `, code ${rpcCode}`})`);
    this.httpStatus = httpStatus;
    this.rpcCode = rpcCode;
    this.serviceMessage = serviceMessage;
  }
}
