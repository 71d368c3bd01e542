// Every request goes through this one function: find the route, apply what the route declares
// (access, method, origin), run the handler, and map any failure to a safe JSON error, with the
// CORS headers of an allowed origin so the widget can read errors too. Then one metric and one
// log line; the reply itself is written with the rest of its event-loop turn's (reply-batch.ts).
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Logger } from '../log/index.ts';
import type { RelayMetrics } from '../metrics/relay-metrics.ts';
import type { Readiness } from '../metrics/readiness.ts';
import type { CidrList } from '../lib/cidr.ts';
import type { OriginPolicy } from './origin.ts';
import { errorReply, send, type Reply } from './reply.ts';
import { createReplyBatch } from './reply-batch.ts';
import { Context } from './request-context.ts';
import { newRequestId } from './request-id.ts';
import type { RequestLine } from './request-line.ts';
import { ambiguousTarget, parseTarget, plainPath } from './request-url.ts';
import { RelayError } from '../contract/errors.ts';
import { NO_SPAN, type SpanHandle, tracing } from '../tracing/tracing.ts';
import { createRouter, handlerFor, notFound, UNMATCHED, type Route } from './router.ts';

export interface PipelineDeps {
  routes: readonly Route[];
  origins: OriginPolicy;
  trustedProxies: CidrList;
  metrics: RelayMetrics;
  readiness: Readiness;
  log: Logger;
  writeLine: (line: RequestLine) => void;
}

export function createRequestHandler(deps: PipelineDeps): (req: IncomingMessage, res: ServerResponse) => Promise<void> {
  const { origins, metrics, log } = deps;
  const router = createRouter(deps.routes);
  // Only reachable if writing a reply itself failed (an invalid header): the socket is the last resort.
  const replies = createReplyBatch((err) => log.error('reply failed', { err }));

  // With tracing (tracing/), each request runs in a span named after its route; without, nothing is wrapped.
  const traced = (req: IncomingMessage, res: ServerResponse) => tracing.span('HTTP request', {}, (span) => handle(req, res, span));
  return tracing.enabled ? traced : handle;

  async function handle(req: IncomingMessage, res: ServerResponse, span: SpanHandle = NO_SPAN): Promise<void> {
    const startedMs = performance.now();
    const requestId = newRequestId();
    const target = req.url ?? '/';
    let url: URL | undefined;
    let pathname = plainPath(target);
    // A target a proxy could read otherwise is never routed (request-url.ts); its log line names
    // the path the relay would have read.
    let ambiguous: string | null = null;
    if (pathname === null) {
      ambiguous = ambiguousTarget(target);
      url = parseTarget(target);
      pathname = url.pathname;
    }
    const method = req.method ?? 'GET';
    const { route, params, label } = ambiguous === null ? router.match(pathname) : UNMATCHED;
    const context = new Context(req, res, requestId, target, url, deps.trustedProxies, log);
    context.params = params;
    let cors: Readonly<Record<string, string>> = noHeaders;
    let reply: Reply;
    try {
      if (ambiguous !== null) throw new RelayError('invalid_request', ambiguous);
      if (route === null || (route.access !== undefined && !(await route.access(context)))) throw notFound(pathname);
      if (route.origin !== 'none') cors = corsOf(origins, req);
      if (method === 'OPTIONS' && route.origin !== 'none') {
        reply = { status: 204, headers: origins.preflightHeaders(origins.check(req, { required: true })) };
      } else {
        const handler = handlerFor(route, method);
        if (route.origin !== 'none') context.origin = origins.check(req, { required: route.origin === 'required' });
        reply = await handler(context);
      }
    } catch (err) {
      reply = errorReply(err, context.log);
    }
    // While draining, every answer closes its connection, so keep-alive clients let go at once.
    const last = deps.readiness.draining ? closeConnection : noHeaders;
    replies.add(res, () => send(res, reply, cors, { 'x-request-id': requestId }, last));
    const methodName = methodLabel(method);
    if (span !== NO_SPAN) {
      span.rename(`${methodName} ${label}`);
      span.set({ 'http.request.method': methodName, 'http.route': label, 'http.response.status_code': reply.status, 'dialback.request_id': requestId });
    }
    metrics.requests.inc({ route: label, method: methodName, status: String(reply.status) });
    deps.writeLine({ req, requestId, label, method: methodName, pathname, reply, context, startedMs });
  }
}

/** CORS headers for an allowed origin, worked out without throwing so error answers get them too. */
function corsOf(origins: OriginPolicy, req: IncomingMessage): Readonly<Record<string, string>> {
  try {
    return origins.corsHeaders(origins.check(req, { required: false }));
  } catch {
    return noHeaders;
  }
}

const noHeaders: Readonly<Record<string, string>> = Object.freeze({});
const closeConnection: Readonly<Record<string, string>> = Object.freeze({ connection: 'close' });

const knownMethods = new Set(['GET', 'HEAD', 'POST', 'PUT', 'DELETE', 'OPTIONS', 'PATCH']);
/** Methods as a metric label: a closed set, whatever the request says. */
const methodLabel = (method: string) => (knownMethods.has(method) ? method : 'other');
