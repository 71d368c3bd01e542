// Turning the service's raw answers into values or typed errors. The shapes follow
// what docs/service-interface.md records of the service; where that is an assumption, it is named
// here and nowhere else.
import { z } from 'zod';
import { CallTrackingHttpError, CallTrackingInvalidResponseError, CallTrackingRejectedError } from './errors.ts';
import type { RawResponse } from './transport.ts';

/** assume (facts, "Callbacks"): refusals carry a JSON-RPC error object, on HTTP 200 or the documented 400/403. */
const RpcErrorObject = z.object({ code: z.number().int(), message: z.string().default('') });
export const RpcResponse = z.union([
  z.object({ jsonrpc: z.literal('2.0').optional(), id: z.union([z.number(), z.string(), z.null()]).optional(), error: RpcErrorObject }).passthrough(),
  // Never depend on the shape of `result` (facts): anything present counts as success.
  z.object({ jsonrpc: z.literal('2.0').optional(), id: z.union([z.number(), z.string(), z.null()]).optional(), result: z.unknown() }).passthrough(),
]);

export function parseJson(raw: RawResponse): unknown {
  try {
    return JSON.parse(raw.text);
  } catch {
    const kind = /^\s*</.test(raw.text) ? 'an HTML page' : raw.text.trim() === '' ? 'an empty body' : 'malformed JSON';
    throw new CallTrackingInvalidResponseError(`the service answered HTTP ${raw.status} with ${kind}`);
  }
}

function retryAfterSeconds(raw: RawResponse): number | undefined {
  const value = raw.headers['retry-after'];
  const n = Number(Array.isArray(value) ? value[0] : value);
  return Number.isFinite(n) && n >= 0 ? n : undefined;
}

/** Statuses that are failures whatever the body says. */
export function throwOnFailureStatus(raw: RawResponse): void {
  if (raw.status === 429 || raw.status >= 500) throw new CallTrackingHttpError(raw.status, retryAfterSeconds(raw));
}

/** The service's own error text from a REST error body (`{"error":{"message"}}`, `{"message"}`, or text). */
export function serviceErrorText(raw: RawResponse): string {
  try {
    const body = JSON.parse(raw.text) as { error?: { message?: unknown } | string; message?: unknown };
    const message = typeof body.error === 'object' ? body.error?.message : (body.error ?? body.message);
    if (typeof message === 'string') return message.slice(0, 300);
  } catch {
    /* not JSON: the text itself */
  }
  return raw.text.slice(0, 300);
}

/** A REST answer that must be a 200: 429/5xx are HTTP errors, any other status a rejection (`detail` for logs). */
export function throwUnlessOk(raw: RawResponse, detail: (raw: RawResponse) => string = serviceErrorText): void {
  throwOnFailureStatus(raw);
  if (raw.status !== 200) throw new CallTrackingRejectedError(raw.status, null, detail(raw));
}

/** A JSON-RPC answer: the `result`, or CallTrackingRejectedError for an error object. */
export function readRpcResult(raw: RawResponse, expectedId: number): unknown {
  throwOnFailureStatus(raw);
  const parsed = RpcResponse.safeParse(parseJson(raw));
  if (!parsed.success) {
    if (raw.status >= 400) throw new CallTrackingRejectedError(raw.status, null, raw.text.slice(0, 200));
    throw new CallTrackingInvalidResponseError(`the service answered HTTP ${raw.status} with JSON that is not a JSON-RPC response`);
  }
  const body = parsed.data;
  if ('error' in body) {
    const error = body.error as z.infer<typeof RpcErrorObject>;
    throw new CallTrackingRejectedError(raw.status, error.code, error.message);
  }
  if (raw.status !== 200) throw new CallTrackingRejectedError(raw.status, null, raw.text.slice(0, 200));
  if (body.id !== undefined && body.id !== null && Number(body.id) !== expectedId) {
    throw new CallTrackingInvalidResponseError(`the service answered id ${String(body.id)} to request ${expectedId}`);
  }
  return (body as { result?: unknown }).result;
}

/** A plain REST answer validated with `schema`; 4xx become rejections, 5xx/429 HTTP errors. */
export function readJson<T>(raw: RawResponse, schema: z.ZodType<T>, what: string): T {
  throwUnlessOk(raw, (r) => r.text.slice(0, 200));
  const parsed = schema.safeParse(parseJson(raw));
  if (!parsed.success) throw new CallTrackingInvalidResponseError(`${what}: unexpected shape (${parsed.error.issues[0]?.message ?? 'invalid'})`);
  return parsed.data;
}
