// The only code that talks to the relay. Every function resolves to a result and never throws or
// rejects: a broken network, a proxy's HTML error page or a relay from a newer version all become a
// failure the UI can put into words.
import type { CallbackAccepted, CallbackProgress, CallbackRequest, ErrorCode, StatusResponse } from '../../server/src/contract';

export type FailureCode = ErrorCode | 'network_error' | 'bad_response';

export interface ApiFailure {
  ok: false;
  code: FailureCode;
  /** HTTP status, 0 when no answer arrived. */
  status: number;
  field?: string;
  retryAfter?: number;
  nextOpenAt?: string;
}
export type ApiResult<T> = { ok: true; data: T } | ApiFailure;

export interface RelayApi {
  requestCallback(body: CallbackRequest, idempotencyKey: string): Promise<ApiResult<CallbackAccepted>>;
  status(): Promise<ApiResult<StatusResponse>>;
  progress(requestId: string): Promise<ApiResult<CallbackProgress>>;
}

export interface ApiOptions {
  /** Which codes this widget knows (its catalog's keys); any other code is mapped by HTTP status. */
  isKnownCode(code: string): code is ErrorCode;
  fetchFn?: typeof fetch;
  timeoutMs?: number;
}

type Check<T> = (value: unknown) => value is T;
const isObject = (v: unknown): v is Record<string, unknown> => !!v && typeof v === 'object';
const isAccepted: Check<CallbackAccepted> = (v): v is CallbackAccepted =>
  isObject(v) && v.status === 'accepted' && typeof v.requestId === 'string' && typeof v.estimateSeconds === 'number';
const isStatus: Check<StatusResponse> = (v): v is StatusResponse => isObject(v) && typeof v.available === 'boolean' && typeof v.openNow === 'boolean';
const isProgress: Check<CallbackProgress> = (v): v is CallbackProgress => isObject(v) && typeof v.outcome === 'string';

/** A fresh key per submit attempt; works on plain-http pages where crypto.randomUUID is missing. */
export function newIdempotencyKey(): string {
  const c = globalThis.crypto;
  if (typeof c?.randomUUID === 'function') return c.randomUUID();
  const bytes = new Uint8Array(16);
  if (typeof c?.getRandomValues === 'function') c.getRandomValues(bytes);
  else for (let i = 0; i < bytes.length; i++) bytes[i] = Math.floor(Math.random() * 256);
  return Array.from(bytes, (b) => b.toString(16).padStart(2, '0')).join('');
}

export function createApi(relay: string, options: ApiOptions): RelayApi {
  const { isKnownCode, timeoutMs = 20_000 } = options;
  const fetchFn = options.fetchFn ?? ((...args: Parameters<typeof fetch>) => fetch(...args));

  function failure(status: number, body: unknown): ApiFailure {
    const error = isObject(body) && isObject(body.error) ? body.error : null;
    const raw = typeof error?.code === 'string' ? error.code : '';
    const code: FailureCode = isKnownCode(raw) ? raw : status >= 500 ? 'internal_error' : status >= 400 ? 'invalid_request' : 'bad_response';
    const result: ApiFailure = { ok: false, code, status };
    if (typeof error?.field === 'string') result.field = error.field;
    if (typeof error?.retryAfter === 'number') result.retryAfter = error.retryAfter;
    if (typeof error?.nextOpenAt === 'string') result.nextOpenAt = error.nextOpenAt;
    return result;
  }

  async function call<T>(path: string, init: RequestInit, check: Check<T>): Promise<ApiResult<T>> {
    const controller = typeof AbortController === 'function' ? new AbortController() : null;
    const timer = controller ? setTimeout(() => controller.abort(), timeoutMs) : undefined;
    try {
      const response = await fetchFn(relay + path, {
        ...init,
        credentials: 'omit',
        mode: 'cors',
        cache: 'no-store',
        signal: controller?.signal ?? null,
      });
      let body: unknown = null;
      try {
        body = await response.json();
      } catch {
        body = null; // an HTML error page from a proxy, an empty body…
      }
      if (!response.ok) return failure(response.status, body);
      return check(body) ? { ok: true, data: body } : { ok: false, code: 'bad_response', status: response.status };
    } catch {
      return { ok: false, code: 'network_error', status: 0 };
    } finally {
      if (timer !== undefined) clearTimeout(timer);
    }
  }

  return {
    requestCallback(body, idempotencyKey) {
      return call(
        '/api/callback',
        { method: 'POST', headers: { 'Content-Type': 'application/json', 'Idempotency-Key': idempotencyKey }, body: JSON.stringify(body) },
        isAccepted,
      );
    },
    status() {
      return call('/api/status', { method: 'GET' }, isStatus);
    },
    progress(requestId) {
      return call(`/api/callback/${encodeURIComponent(requestId)}`, { method: 'GET' }, isProgress);
    },
  };
}
