// The only code that talks to the relay. Every function resolves to a result and never throws or
// rejects: a broken network, a proxy's HTML error page or a relay from a newer version all become a
// failure the UI can put into words.
import type { CallbackAnswer, CallbackProgress, CallbackRequest, ErrorCode, StatusResponse } from '../../server/src/contract.ts';

export type FailureCode = ErrorCode | 'network_error' | 'bad_response';

export interface ApiFailure {
  ok: false;
  code: FailureCode;
  field?: string | undefined;
  retryAfter?: number | undefined;
  nextOpenAt?: string | undefined;
}
export type ApiResult<T> = { ok: true; data: T } | ApiFailure;

export interface RelayApi {
  requestCallback(body: CallbackRequest, idempotencyKey: string): Promise<ApiResult<CallbackAnswer>>;
  status(): Promise<ApiResult<StatusResponse>>;
  /** `cancelToken`: cancels a scheduled or queued call (DELETE) instead of asking about it. */
  progress(requestId: string, cancelToken?: string): Promise<ApiResult<CallbackProgress>>;
}

export interface ApiOptions {
  /** Which codes this widget knows (its catalog's keys); any other code is mapped by HTTP status. */
  isKnownCode(code: string): code is ErrorCode;
}

/** How long one request may take before it counts as a network failure. */
const timeoutMs = 20_000;

export function createApi(relay: string, { isKnownCode }: ApiOptions): RelayApi {
  /** `valid` names the member that proves the answer has the expected shape. */
  async function call<T>(path: string, valid: (body: T) => unknown, init?: RequestInit): Promise<ApiResult<T>> {
    try {
      const response = await fetch(relay + path, { ...init, credentials: 'omit', cache: 'no-store', signal: AbortSignal.timeout(timeoutMs) });
      // An HTML error page from a proxy, or an empty body, is simply "no body".
      const body = (await response.json().catch(() => null)) as (T & { error?: Record<string, unknown> }) | null;
      if (response.ok) return body && valid(body) ? { ok: true, data: body } : { ok: false, code: 'bad_response' };
      const { code, field, retryAfter, nextOpenAt } = Object(body?.error) as Record<string, unknown>;
      return {
        ok: false,
        code: isKnownCode(String(code)) ? (code as ErrorCode) : response.status >= 500 ? 'internal_error' : 'invalid_request',
        field: typeof field === 'string' ? field : undefined,
        retryAfter: typeof retryAfter === 'number' ? retryAfter : undefined,
        nextOpenAt: typeof nextOpenAt === 'string' ? nextOpenAt : undefined,
      };
    } catch {
      return { ok: false, code: 'network_error' };
    }
  }

  return {
    requestCallback: (body, idempotencyKey) =>
      call<CallbackAnswer>('/api/callback', (b) => b.requestId, {
        method: 'POST',
        headers: { 'Content-Type': 'application/json', 'Idempotency-Key': idempotencyKey },
        body: JSON.stringify(body),
      }),
    status: () => call<StatusResponse>('/api/status', (b) => typeof b.openNow === 'boolean'),
    progress: (requestId, cancelToken) =>
      call<CallbackProgress>(
        '/api/callback/' + encodeURIComponent(requestId),
        (b) => b.outcome,
        // The header's name is CANCEL_TOKEN_HEADER of the contract.
        cancelToken ? { method: 'DELETE', headers: { 'Cancel-Token': cancelToken } } : undefined,
      ),
  };
}
