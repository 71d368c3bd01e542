// createRelay builds the relay's http.Server without starting it (main.ts listens; tests listen on
// 127.0.0.1:0). Every request goes through one function: route, run, and map any failure to a safe
// JSON error, with CORS headers for allowed origins so the widget can read errors too.
import { createServer, STATUS_CODES, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { newRequestId } from './http/request-id.ts';
import { parseTarget, plainPath } from './http/request-url.ts';
import type { Config } from './config.ts';
import type { ErrorBody } from './contract.ts';
import type { Fields, Logger } from './log.ts';
import { createCallTrackingClient, type CallTrackingClient } from './calltracking/client.ts';
import { createOriginPolicy } from './http/origin.ts';
import { createAgentStatus } from './agents/agent-status.ts';
import { createConsentLog, type ConsentLog } from './callback/consent-log.ts';
import { createAcceptedCalls } from './outcome/accepted-calls.ts';
import { createRouter, type RequestContext, type Route } from './http/router.ts';
import { errorReply, send, type Reply } from './http/reply.ts';
import { clientIp } from './http/client-ip.ts';
import type { CidrList } from './http/cidr.ts';
import { loadStaticSet, type StaticSet } from './http/static-files.ts';
import { RelayError } from './errors.ts';
import type { AppContext } from './app-context.ts';
import { callbackRoute } from './routes/callback.ts';
import { statusRoute } from './routes/status.ts';
import { healthRoute } from './routes/health.ts';
import { widgetChunkRoute, widgetScriptRoute } from './routes/assets.ts';
import { demoRoute } from './routes/demo.ts';
import { readyzRoute } from './routes/readyz.ts';
import { metricsRoute } from './routes/metrics.ts';
import { createRelayMetrics } from './metrics/relay-metrics.ts';
import { observeUpstream } from './metrics/upstream.ts';
import { createProtection } from './protect/protection.ts';
import type { LimitStore } from './protect/limit-store.ts';
import { redactWebhookToken, routeWebhookRoute } from './routes/route-webhook.ts';
import { callbackProgressRoute } from './routes/callback-progress.ts';
import { ownerRoutes } from './routes/owner.ts';
import { createOfficeHours } from './schedule/office-hours.ts';
import { createRepeatLines } from './log/repeat-lines.ts';

export interface RelayDeps {
  config: Config;
  log: Logger;
  /** Defaults to a client for config.calltracking. */
  client?: CallTrackingClient;
  consent?: ConsentLog;
  now?: () => Date;
  /** A limit store shared by several relays (e.g. Redis); the bounded memory store by default. */
  limitStore?: LimitStore;
}

export interface Relay {
  server: Server;
  app: AppContext;
  /** Stops accepting, lets in-flight requests finish, then releases the service connections. */
  close(): Promise<void>;
}

export function createRelay(deps: RelayDeps): Relay {
  const { config, log } = deps;
  const metrics = createRelayMetrics();
  const client =
    deps.client ??
    createCallTrackingClient({
      baseUrl: config.calltracking.baseUrl,
      authKey: config.calltracking.authKey,
      timeoutMs: config.upstreamTimeoutMs,
      observe: observeUpstream(metrics),
      timeZone: config.calltracking.timeZone,
    });
  const app: AppContext = {
    config,
    client,
    log,
    origins: createOriginPolicy(config.allowedOrigins),
    agents: createAgentStatus(client, { cacheMs: config.statusCacheMs, log }),
    consent: deps.consent ?? createConsentLog({ hashSecret: config.hashSecret, path: config.consentLogPath }),
    accepted: createAcceptedCalls(),
    office: createOfficeHours(config.schedule, config.timezone),
    now: deps.now ?? (() => new Date()),
    ...createProtection({
      config,
      log,
      client,
      metrics,
      ...(deps.limitStore && { limitStore: deps.limitStore }),
      ...(deps.now && { now: () => deps.now!().getTime() }),
    }),
  };

  const widget = loadStaticSet(config.widgetDir);
  if (!widget.paths.includes('widget.js')) log.warn('widget not built: /widget.js will answer 503 until `npm run build` has run', { widgetDir: config.widgetDir });

  const routes: Route[] = [
    { path: '/api/callback', methods: { POST: callbackRoute(app) } },
    { path: '/api/status', methods: { GET: statusRoute(app) } },
    callbackProgressRoute(app),
    { path: '/widget.js', methods: { GET: widgetScriptRoute(widget) } },
    { path: /^\/chunks\/(?<file>[\w.-]+)$/, methods: { GET: widgetChunkRoute(widget) } },
    { path: '/healthz', methods: { GET: healthRoute } },
    { path: '/readyz', methods: { GET: readyzRoute(app) } },
    { path: '/metrics', methods: { GET: metricsRoute(app) } },
  ];
  const routeWebhook = routeWebhookRoute(app);
  if (routeWebhook) routes.push(routeWebhook);
  // The demo folder serves both the demo pages and the owner view: read and compressed once, and
  // only when one of them is on.
  let demoFiles: StaticSet | undefined;
  const demoSet = () => (demoFiles ??= loadStaticSet(config.demoDir));
  routes.push(...ownerRoutes(app, demoSet));
  if (config.demo) {
    const demo = demoSet();
    routes.push(
      { path: '/', methods: { GET: demoRoute(demo, () => 'index.html') } },
      { path: /^\/demo\/(?<file>[\w.-]+)$/, methods: { GET: demoRoute(demo, (p) => p.file!) } },
    );
  }
  const router = createRouter(routes);
  const repeatLines = createRepeatLines(log, config.logRepeatWindowMs);

  async function handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const started = performance.now();
    const requestId = newRequestId();
    const target = req.url ?? '/';
    let url: URL | undefined;
    let pathname = plainPath(target);
    if (pathname === null) {
      url = parseTarget(target);
      pathname = url.pathname;
    }
    const isApi = pathname.startsWith('/api/');
    // CORS headers only for allowed origins; computed without throwing so errors get them too.
    let cors: Readonly<Record<string, string>> = noHeaders;
    if (isApi) {
      try {
        cors = app.origins.corsHeaders(app.origins.check(req, { required: false }));
      } catch {
        cors = noHeaders;
      }
    }

    const route = router.match(req.method ?? 'GET', pathname);
    let reply: Reply;
    let context: Context | undefined;
    try {
      if (req.method === 'OPTIONS' && isApi) {
        const origin = app.origins.check(req, { required: true });
        reply = { status: 204, headers: app.origins.preflightHeaders(origin) };
      } else {
        context = new Context(req, res, target, url, route.params, requestId, config.trustedProxies, log);
        reply = await route.handler(context);
      }
    } catch (err) {
      reply = errorReply(err, context?.log ?? log.child({ requestId }));
    }
    // While draining, every answer closes its connection, so keep-alive clients let go at once.
    send(res, reply, cors, { 'x-request-id': requestId }, app.readiness.draining ? closeConnection : noHeaders);
    const method = methodLabel(req.method);
    metrics.requests.inc({ route: route.label, method, status: String(reply.status) });
    const extra = context?.logFields;
    // Why an error answered: the refusal's reason, else the error's code.
    const refused = typeof extra?.refused === 'string' ? extra.refused : undefined;
    const errorCode = refused === undefined ? errorCodeOf(reply) : undefined;
    // Cheap answers may share their kind's summary line (log/repeat-lines.ts): client errors and
    // refusals, and what a route marks repeatable (preflights are); never a line a route wants kept,
    // never a server error's.
    const marked = context?.repeatable ?? (req.method === 'OPTIONS' || undefined);
    const repeatable = reply.status < 500 && marked !== false && (marked === true || reply.status >= 400);
    const reason = refused ?? errorCode;
    if (repeatable && !repeatLines.admit({ route: route.label, method, status: reply.status, ...(reason !== undefined && { reason }) })) return;
    // Written through the relay's own logger with the id as its first field: the same line a child
    // logger would write, without making one for every request (handlers that log make theirs).
    const line: Fields = {
      requestId,
      method: req.method,
      path: loggedPath(pathname),
      status: reply.status,
      ...(errorCode !== undefined && { error: errorCode }),
      ms: Math.round((performance.now() - started) * 10) / 10,
    };
    if (extra) for (const name in extra) if (!Object.hasOwn(line, name)) line[name] = extra[name];
    log.info('request', line);
  }

  const server = createServer(
    {
      headersTimeout: config.protect.http.headersTimeoutMs,
      requestTimeout: config.protect.http.requestTimeoutMs,
      keepAliveTimeout: config.protect.http.keepAliveTimeoutMs,
      maxHeaderSize: 16 * 1024,
      // How often node looks for connections over headersTimeout/requestTimeout (slowloris). The
      // default, 30 s, would let slow connections live up to 30 s past their limit.
      connectionsCheckingInterval: Math.min(1_000, config.protect.http.headersTimeoutMs),
    },
    (req, res) => {
      handle(req, res).catch((err) => {
        // Only reachable if writing the reply itself failed; the socket is the last resort.
        reqLogFallback(log, err);
        res.destroy();
      });
    },
  );
  // Beyond this, node closes new connections at once: a flood cannot exhaust file descriptors.
  server.maxConnections = config.protect.http.maxConnections;
  metrics.registry.onCollect(() => {
    server.getConnections((err, count) => {
      if (!err) metrics.openConnections.set(count);
    });
  });
  server.on('clientError', (err: NodeJS.ErrnoException, socket) => {
    if (!socket.writable) return socket.destroy();
    const error = unparsedRequestError(err.code);
    const body = JSON.stringify(error.toBody());
    metrics.requests.inc({ route: 'unparsed', method: 'other', status: String(error.status) });
    socket.end(`HTTP/1.1 ${error.status} ${STATUS_CODES[error.status]}\r\ncontent-type: application/json\r\ncontent-length: ${Buffer.byteLength(body)}\r\nconnection: close\r\n\r\n${body}`);
  });

  return {
    server,
    app,
    async close() {
      app.readiness.drain();
      await new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeIdleConnections();
      });
      await client.close();
    },
  };
}

/** What a handler gets; the URL, the client's address and the logger are made only when a handler asks. */
class Context implements RequestContext {
  readonly req: IncomingMessage;
  readonly res: ServerResponse;
  private readonly target: string;
  private parsed: URL | undefined;
  readonly params: Record<string, string>;
  readonly requestId: string;
  private readonly trustedProxies: CidrList;
  private readonly relayLog: Logger;

  constructor(req: IncomingMessage, res: ServerResponse, target: string, parsed: URL | undefined, params: Record<string, string>, requestId: string, trustedProxies: CidrList, relayLog: Logger) {
    this.req = req;
    this.res = res;
    this.target = target;
    this.parsed = parsed;
    this.params = params;
    this.requestId = requestId;
    this.trustedProxies = trustedProxies;
    this.relayLog = relayLog;
  }

  logFields: Fields | undefined = undefined;
  repeatable: boolean | undefined = undefined;
  private childLog: Logger | undefined = undefined;
  private address: string | undefined = undefined;

  /** The visitor's address (TRUSTED_PROXIES, X-Forwarded-For): only the callback route needs it. */
  get clientIp(): string {
    return (this.address ??= clientIp(this.req, this.trustedProxies));
  }

  /** The request's logger (its lines carry the request id), made when a handler first logs. */
  get log(): Logger {
    return (this.childLog ??= this.relayLog.child({ requestId: this.requestId }));
  }

  get url(): URL {
    return (this.parsed ??= parseTarget(this.target));
  }
}

/** The path for the request log: the routing webhook's token is a secret, long paths are cut. */
function loggedPath(pathname: string): string {
  const path = redactWebhookToken(pathname);
  return path.length > 120 ? path.slice(0, 120) + '…' : path;
}

/** The error code of an answer made from a RelayError (`{"error": {"code"}}`), if it is one. */
function errorCodeOf(reply: Reply): string | undefined {
  const body = reply.body as Partial<ErrorBody> | undefined;
  return reply.status >= 400 && body && typeof body === 'object' && typeof body.error?.code === 'string' ? body.error.code : undefined;
}

const noHeaders: Readonly<Record<string, string>> = Object.freeze({});
const closeConnection: Readonly<Record<string, string>> = Object.freeze({ connection: 'close' });

const knownMethods = new Set(['GET', 'HEAD', 'POST', 'PUT', 'DELETE', 'OPTIONS', 'PATCH']);
/** Methods as a metric label: a closed set, whatever the request says. */
const methodLabel = (method: string | undefined) => (method && knownMethods.has(method) ? method : 'other');

/** A request node could not parse, as the RelayError it is answered with (its status from contract.ts). */
function unparsedRequestError(code: string | undefined): RelayError {
  if (code === 'HPE_HEADER_OVERFLOW') return new RelayError('headers_too_large', 'The request headers are too large.');
  if (code === 'ERR_HTTP_REQUEST_TIMEOUT') return new RelayError('request_timeout', 'The request took too long to arrive.');
  return new RelayError('invalid_request', 'The request is not valid HTTP.');
}

function reqLogFallback(log: Logger, err: unknown) {
  log.error('reply failed', { err });
}
