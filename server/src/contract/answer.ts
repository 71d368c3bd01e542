// An answer as plain data: a status, a body and headers. Use-cases return answers, the idempotency
// store keeps them for repeats of a request, and http/reply.ts writes them to the socket; so the
// answer to a RelayError (its status, JSON body and Retry-After) is made here, with no HTTP in it.
import type { RelayError } from './errors.ts';

export interface Answer {
  status: number;
  /** Objects are sent as JSON; strings and Buffers as they are, a Readable streamed (set content-type in headers). */
  body?: unknown;
  headers?: Record<string, string | number>;
}

export const json = (status: number, body: unknown, headers: Record<string, string | number> = {}): Answer => ({ status, body, headers });

export const JSON_TYPE = 'application/json; charset=utf-8';

/** The same answer with its object body written as JSON once, for an answer sent many times over. */
export function serialized(answer: Answer): Answer {
  if (answer.body === undefined || typeof answer.body === 'string' || Buffer.isBuffer(answer.body)) return answer;
  return { ...answer, body: JSON.stringify(answer.body), headers: { 'content-type': JSON_TYPE, ...answer.headers } };
}

/** The answer to a RelayError: its status, its JSON body, Retry-After when it has one. */
export function errorAnswer(relayError: RelayError): Answer {
  const headers: Record<string, string> = { 'cache-control': 'no-store', ...relayError.options.headers };
  if (relayError.options.retryAfter !== undefined) headers['retry-after'] = String(relayError.options.retryAfter);
  // A refused body may still be streaming in: close the connection rather than read it.
  if (relayError.status === 413 || relayError.status === 415) headers.connection = 'close';
  return { status: relayError.status, body: relayError.toBody(), headers };
}
