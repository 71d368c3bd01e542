// The only code that talks to the relay. Every function resolves to a result and never throws or
// rejects: a broken network, a proxy's HTML error page or a relay from a newer version all become a
// failure the UI can put into words.
import type { ErrorCode, StatusResponse } from '../../server/src/contract/contract.ts';

/**
 * Codes the relay gives only to a request this widget never sends: a method, media type or size it
 * does not use, an Idempotency-Key reused with another body (a key is reused only for the same
 * body), a Cancel-Token other than the relay's own. The catalogs give them no sentence (a byte
 * every visitor would pay for a bug), so they arrive as the code of their HTTP status, all 4xx:
 * invalid_request ("reload the page and try again"). Types only in the bundle: the list is for tests.
 */
export const bugOnlyCodes = [
  'method_not_allowed',
  'unsupported_media_type',
  'payload_too_large',
  'headers_too_large',
  'idempotency_key_reused',
  'cancel_not_allowed',
] as const satisfies readonly ErrorCode[];
/** A relay code the widget knows: one its catalogs have a sentence for. */
export type KnownCode = Exclude<ErrorCode, (typeof bugOnlyCodes)[number]>;
export type FailureCode = KnownCode | 'network_error' | 'bad_response';

export interface ApiFailure {
  ok: false;
  code: FailureCode;
  /**
   * The relay's `error` object as it came, unchecked: its other members (field, retryAfter,
   * nextOpenAt) matter only to the callback request, which reads them in its own chunk (send.ts).
   */
  error?: Record<string, unknown>;
}
export type ApiResult<T> = { ok: true; data: T } | ApiFailure;

export interface RelayApi {
  status(): Promise<ApiResult<StatusResponse>>;
  /**
   * One request to the relay. `valid` names the member that proves the answer has the expected shape.
   * The requests only a lazy chunk makes (the callback in send.ts, its progress in progress/track.ts)
   * are built there, so their bytes are paid only by the visitors who get that far.
   */
  call<T>(path: string, valid: (body: T) => unknown, init?: RequestInit): Promise<ApiResult<T>>;
}

export interface ApiOptions {
  /** Which codes this widget knows (its catalog's keys, KnownCode); any other code is mapped by HTTP status. */
  isKnownCode(code: string): boolean;
}

/** How long one request may take before it counts as a network failure. */
const timeoutMs = 20_000;

export function createApi(relay: string, { isKnownCode }: ApiOptions): RelayApi {
  async function call<T>(path: string, valid: (body: T) => unknown, init?: RequestInit): Promise<ApiResult<T>> {
    try {
      const response = await fetch(relay + path, { ...init, credentials: 'omit', cache: 'no-store', signal: AbortSignal.timeout(timeoutMs) });
      // An HTML error page from a proxy, or an empty body, is simply "no body".
      const body = (await response.json().catch(() => null)) as (T & { error?: Record<string, unknown> }) | null;
      if (response.ok) return body && valid(body) ? { ok: true, data: body } : { ok: false, code: 'bad_response' };
      const error = Object(body?.error) as Record<string, unknown>;
      const code = String(error.code);
      return { ok: false, code: isKnownCode(code) ? (code as KnownCode) : response.status >= 500 ? 'internal_error' : 'invalid_request', error };
    } catch {
      return { ok: false, code: 'network_error' };
    }
  }

  return {
    status: () => call<StatusResponse>('/api/status', (b) => typeof b.openNow === 'boolean'),
    call,
  };
}
