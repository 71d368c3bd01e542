// The HTTP layer under the service client: undici (not fetch) so connect and total timeouts are
// separate and a connect failure is distinguishable from a failure after the request went out.
// Every failure comes out as one of calltracking/errors.ts.
import { EventEmitter } from 'node:events';
import { Agent, type Dispatcher } from 'undici';
import { tracing } from '../tracing/tracing.ts';
import { CallTrackingConnectError, CallTrackingError, CallTrackingTimeoutError, CallTrackingTransportError } from './errors.ts';

export interface TransportOptions {
  baseUrl: string;
  authKey: string;
  /** The longest wait for a whole answer (UPSTREAM_TIMEOUT_MS). */
  timeoutMs: number;
  /** The longest wait for the TCP connection; defaults to min(timeoutMs, 3000). */
  connectTimeoutMs?: number;
  /** Injectable for tests (e.g. undici MockAgent) and for sharing one pool. */
  dispatcher?: Dispatcher;
  /** Told about every request once it has ended (metrics); must not throw. */
  observe?: (event: UpstreamEvent) => void;
}

export interface UpstreamEvent {
  path: string;
  /** Whole round trip, body included. */
  seconds: number;
  /** The HTTP status class when an answer came, else how it failed. */
  outcome: '2xx' | '3xx' | '4xx' | '5xx' | 'connect_error' | 'transport_error' | 'timeout';
}

export interface RawResponse {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  text: string;
}

/** Where a request goes, in the two parts undici's dispatcher takes. */
interface Target {
  origin: string;
  /** Path and query, as sent on the request line. */
  path: string;
}

export interface SendOptions {
  method: 'GET' | 'POST';
  path: string;
  query?: Record<string, string | undefined>;
  body?: { json: unknown } | { form: Record<string, string> };
}

/** Error codes (system and undici) that prove no byte of the request reached the service. */
const neverConnected = new Set(['ECONNREFUSED', 'ENOTFOUND', 'EAI_AGAIN', 'EHOSTUNREACH', 'ENETUNREACH', 'EADDRNOTAVAIL', 'UND_ERR_CONNECT_TIMEOUT']);

function errorCode(err: unknown): string | undefined {
  let e: unknown = err;
  for (let depth = 0; e && depth < 4; depth++) {
    const code = (e as { code?: unknown }).code;
    if (typeof code === 'string' && code !== 'UND_ERR_ABORTED') return code;
    e = (e as { cause?: unknown }).cause;
  }
  return undefined;
}

export function createTransport(options: TransportOptions) {
  const connectTimeout = options.connectTimeoutMs ?? Math.min(options.timeoutMs, 3000);
  const ownAgent = options.dispatcher
    ? null
    : new Agent({
        connect: { timeout: connectTimeout },
        headersTimeout: options.timeoutMs,
        bodyTimeout: options.timeoutMs,
        // Shorter than common server keep-alive defaults (5 s), so we rarely write into a socket
        // the service is closing: such a write cannot be proven unsent and would end as "unknown".
        keepAliveTimeout: 2000,
        connections: 64,
      });
  const dispatcher = options.dispatcher ?? ownAgent!;

  const base = options.baseUrl.replace(/\/+$/, '');
  // Where each path goes, worked out once: the client uses a handful of fixed paths, and parsing a
  // URL per request (ours, then undici's again from the URL object) was most of this function's
  // own cost. Requests with a query are still built per request.
  const targets = new Map<string, Target>();
  function targetOf(opts: SendOptions): Target {
    if (opts.query === undefined) {
      const known = targets.get(opts.path);
      if (known) return known;
    }
    const url = new URL(base + opts.path);
    for (const [k, v] of Object.entries(opts.query ?? {})) if (v !== undefined) url.searchParams.set(k, v);
    const target = { origin: url.origin, path: url.pathname + url.search };
    if (opts.query === undefined && targets.size < 64) targets.set(opts.path, target);
    return target;
  }

  async function send(opts: SendOptions): Promise<RawResponse> {
    const { origin, path } = targetOf(opts);

    const headers: Record<string, string> = { 'auth-key': options.authKey, accept: 'application/json' };
    let body: string | undefined;
    if (opts.body && 'json' in opts.body) {
      headers['content-type'] = 'application/json';
      body = JSON.stringify(opts.body.json);
    } else if (opts.body && 'form' in opts.body) {
      headers['content-type'] = 'application/x-www-form-urlencoded';
      body = new URLSearchParams(opts.body.form).toString();
    } else if (opts.method === 'GET') {
      // The spec's clients send it on GETs too; harmless, and some gateways want it.
      headers['content-type'] = 'application/json';
    }

    // The total deadline: one timer per request, cleared when it ends. (AbortSignal.timeout would
    // leave its timer, a WeakRef and a registry entry behind for the whole timeout, per request.)
    const signal = new Deadline(options.timeoutMs);
    const started = performance.now();
    try {
      // dispatcher.request is what undici's request(url, {dispatcher}) calls, minus parsing the URL again.
      const res = await dispatcher.request({ origin, path, method: opts.method, headers, body, signal });
      const text = await res.body.text();
      observe(options, opts.path, started, `${Math.min(5, Math.max(2, Math.floor(res.statusCode / 100)))}xx` as UpstreamEvent['outcome']);
      return { status: res.statusCode, headers: res.headers, text };
    } catch (err) {
      const failure = classify(err, signal, options.timeoutMs);
      observe(
        options,
        opts.path,
        started,
        failure instanceof CallTrackingConnectError ? 'connect_error' : failure instanceof CallTrackingTimeoutError ? 'timeout' : 'transport_error',
      );
      throw failure;
    } finally {
      signal.clear();
    }
  }

  // Inside a request or a job, each request to the service is a span of its own (tracing/).
  const tracedSend = (opts: SendOptions) => tracing.child(`calltracking ${opts.method} ${opts.path}`, () => send(opts));
  return {
    send: tracing.enabled ? tracedSend : send,
    async close(): Promise<void> {
      await ownAgent?.close();
    },
  };
}

/**
 * A request's total deadline, as the abort signal undici takes. undici accepts an EventEmitter
 * with `aborted` and `reason` as well as an AbortSignal, and one is much cheaper to make and to
 * listen to than an AbortController's EventTarget.
 */
class Deadline extends EventEmitter {
  aborted = false;
  reason: unknown = undefined;
  private readonly timer: NodeJS.Timeout;

  constructor(ms: number) {
    super();
    this.timer = setTimeout(expire, ms, this);
  }

  clear(): void {
    clearTimeout(this.timer);
  }
}

function expire(deadline: Deadline): void {
  deadline.aborted = true;
  // The same reason AbortSignal.timeout gives.
  deadline.reason = new DOMException('The operation was aborted due to timeout', 'TimeoutError');
  deadline.emit('abort');
}

function observe(options: TransportOptions, path: string, started: number, outcome: UpstreamEvent['outcome']): void {
  options.observe?.({ path, seconds: (performance.now() - started) / 1000, outcome });
}

function classify(err: unknown, signal: Deadline, timeoutMs: number): CallTrackingError {
  if (err instanceof CallTrackingError) return err;
  const code = errorCode(err);
  if (code && neverConnected.has(code)) return new CallTrackingConnectError(`could not connect to the service (${code})`, { cause: err });
  if (signal.aborted || code === 'UND_ERR_HEADERS_TIMEOUT' || code === 'UND_ERR_BODY_TIMEOUT') return new CallTrackingTimeoutError(timeoutMs);
  return new CallTrackingTransportError(`the connection to the service failed (${code ?? 'unknown error'})`, { cause: err });
}

export type Transport = ReturnType<typeof createTransport>;
