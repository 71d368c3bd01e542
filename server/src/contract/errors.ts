// Every failure the relay reports, in one place. Handlers throw these; one error handler
// (http/reply.ts) turns them into `{"error": {code, message, field?}}` with the status that
// contract.ts fixes for the code. Anything that is not a RelayError becomes `internal_error`
// with a generic message, so internal details never reach a visitor.
import { errorStatus, serverOnlyErrorStatus, type ErrorCode, type ErrorBody, type RelayErrorCode } from './contract.ts';

export interface RelayErrorOptions {
  field?: string;
  /** Seconds until a retry may succeed; sent as `Retry-After` too. */
  retryAfter?: number;
  nextOpenAt?: string;
  /** Extra response headers (e.g. `Allow` for 405). */
  headers?: Record<string, string>;
  cause?: unknown;
}

export class RelayError extends Error {
  override readonly name = 'RelayError';
  readonly status: number;
  readonly code: RelayErrorCode;
  readonly options: RelayErrorOptions;

  constructor(code: RelayErrorCode, message: string, options: RelayErrorOptions = {}) {
    // No stack: a RelayError is an answer to the visitor, never logged with one (a failure of our
    // own is logged before it becomes one, with its stack in `cause`), and the errors of a flood
    // (a 404, a foreign origin, a bad body, a refusal) are made thousands of times a second:
    // capturing the stack was 12 % of a 404 flood's CPU.
    const stackLimit = Error.stackTraceLimit;
    Error.stackTraceLimit = 0;
    super(message, options.cause === undefined ? undefined : { cause: options.cause });
    Error.stackTraceLimit = stackLimit;
    this.code = code;
    this.options = options;
    this.status = code in serverOnlyErrorStatus ? serverOnlyErrorStatus[code as keyof typeof serverOnlyErrorStatus] : errorStatus[code as ErrorCode];
  }

  toBody(): ErrorBody {
    const { field, retryAfter, nextOpenAt } = this.options;
    return {
      error: {
        // A server-only code is one the widget does not know: it shows its general sentence (api.ts isKnownCode).
        code: this.code as ErrorCode,
        message: this.message,
        ...(field !== undefined && { field }),
        ...(retryAfter !== undefined && { retryAfter }),
        ...(nextOpenAt !== undefined && { nextOpenAt }),
      },
    };
  }
}
