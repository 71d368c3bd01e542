// Writing responses. One function maps any thrown value to a safe reply: RelayErrors keep their
// code and message; anything else is logged and answered as a generic internal_error, so stack
// traces and upstream bodies never reach a visitor.
import { isStoreUnavailable, toRelayError as storeUnavailableReply } from '../storage/errors.ts';
import type { ServerResponse } from 'node:http';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { errorAnswer, JSON_TYPE, json, serialized, type Answer } from '../contract/answer.ts';
import { RelayError } from '../contract/errors.ts';
import type { Logger } from '../log/index.ts';

/** An answer on its way to the socket (contract/answer.ts): plain data, made by routes and use-cases alike. */
export type Reply = Answer;

export { json, serialized };

/**
 * Writes the reply. Headers: each of `extraHeaders` in order, then the reply's own; a later value
 * replaces an earlier one of the same name in its place.
 */
export function send(res: ServerResponse, reply: Reply, ...extraHeaders: ReadonlyArray<Readonly<Record<string, string>>>): void {
  if (res.headersSent) return;
  // A flat [name, value, …] list for writeHead: node validates each header either way, and this
  // spares building and merging header objects on every answer.
  const raw: Array<string | number> = [];
  for (const extra of extraHeaders) for (const name in extra) put(raw, name, extra[name]!);
  if (reply.headers) for (const name in reply.headers) put(raw, name, reply.headers[name]!);
  if (reply.body instanceof Readable) {
    // Streamed (chunked): written as it is read, at the pace the client takes it.
    put(raw, 'x-content-type-options', 'nosniff');
    res.writeHead(reply.status, raw);
    // A client that leaves mid-way ends the stream; there is nothing left to answer.
    pipeline(reply.body, res).catch(() => {});
    return;
  }
  let payload: string | Buffer | undefined;
  if (reply.body === undefined) payload = undefined;
  else if (typeof reply.body === 'string' || Buffer.isBuffer(reply.body)) payload = reply.body;
  else {
    payload = JSON.stringify(reply.body);
    if (indexOf(raw, 'content-type') < 0) raw.push('content-type', JSON_TYPE);
  }
  if (payload !== undefined) put(raw, 'content-length', Buffer.byteLength(payload));
  put(raw, 'x-content-type-options', 'nosniff');
  res.writeHead(reply.status, raw);
  res.end(payload);
}

function indexOf(raw: ReadonlyArray<string | number>, name: string): number {
  for (let i = 0; i < raw.length; i += 2) if (raw[i] === name) return i;
  return -1;
}

function put(raw: Array<string | number>, name: string, value: string | number): void {
  const at = indexOf(raw, name);
  if (at >= 0) raw[at + 1] = value;
  else raw.push(name, value);
}

export function errorReply(error: unknown, log: Logger): Reply {
  if (error instanceof RelayError) return relayErrorReply(error);
  // The shared store (Redis) could not answer: nothing was checked, so nothing was done. The
  // connection logs the outage once (ALERT) and /metrics counts it; no line per request here.
  if (isStoreUnavailable(error)) return relayErrorReply(storeUnavailableReply(error));
  log.error('unhandled error', { err: error });
  return relayErrorReply(new RelayError('internal_error', 'Something went wrong on our side. Please try again.', { cause: error }));
}

export const relayErrorReply = errorAnswer;
