// Writing responses. One function maps any thrown value to a safe reply: RelayErrors keep their
// code and message; anything else is logged and answered as a generic internal_error, so stack
// traces and upstream bodies never reach a visitor.
import type { ServerResponse } from 'node:http';
import { RelayError, isRelayError } from '../errors.js';
import type { Logger } from '../log.js';

export interface Reply {
  status: number;
  /** Objects are sent as JSON; strings and Buffers as they are (set content-type in headers). */
  body?: unknown;
  headers?: Record<string, string | number>;
}

export const json = (status: number, body: unknown, headers: Record<string, string | number> = {}): Reply => ({ status, body, headers });

export function send(res: ServerResponse, reply: Reply, extraHeaders: Record<string, string> = {}): void {
  if (res.headersSent) return;
  const headers: Record<string, string | number> = { ...extraHeaders, ...reply.headers };
  let payload: string | Buffer | undefined;
  if (reply.body === undefined) payload = undefined;
  else if (typeof reply.body === 'string' || Buffer.isBuffer(reply.body)) payload = reply.body;
  else {
    payload = JSON.stringify(reply.body);
    headers['content-type'] ??= 'application/json; charset=utf-8';
  }
  if (payload !== undefined) headers['content-length'] = Buffer.byteLength(payload);
  headers['x-content-type-options'] = 'nosniff';
  res.writeHead(reply.status, headers);
  res.end(payload);
}

export function errorReply(error: unknown, log: Logger): Reply {
  const relayError = isRelayError(error)
    ? error
    : new RelayError('internal_error', 'Something went wrong on our side. Please try again.', { cause: error });
  if (!isRelayError(error)) log.error('unhandled error', { err: error });
  const headers: Record<string, string> = { 'cache-control': 'no-store', ...relayError.options.headers };
  if (relayError.options.retryAfter !== undefined) headers['retry-after'] = String(relayError.options.retryAfter);
  // A refused body may still be streaming in: close the connection rather than read it.
  if (relayError.status === 413 || relayError.status === 415) headers.connection = 'close';
  return { status: relayError.status, body: relayError.toBody(), headers };
}
