// createRelay builds the relay's http.Server without starting it (main.ts listens; tests listen on
// 127.0.0.1:0): the app's parts (app/app-context.ts), the route table (routes/index.ts), the request
// pipeline (http/handle-request.ts) and the connection guard (http/connection-guard.ts).
import { createServer, type Server } from 'node:http';
import { createAppContext, type AppContext, type AppDeps } from './app/app-context.ts';
import { createJobRunner, type JobRunner, type JobRunnerOptions } from './callback/steps/job-runner.ts';
import { guardConnections } from './http/connection-guard.ts';
import { drainConnections } from './http/drain-connections.ts';
import { createRequestHandler } from './http/handle-request.ts';
import { createRepeatLines } from './log/repeat-lines.ts';
import { watchBacklogs } from './metrics/backlogs.ts';
import { createRequestLog } from './http/request-line.ts';
import { loadStaticSet, type StaticSet } from './http/static-files.ts';
import { routeTable } from './routes/index.ts';
import { redactWebhookToken } from './routes/route-webhook.ts';

export interface RelayDeps extends AppDeps {
  /** The held calls' runner: its timers (tests drive runOnce() on their own clock), interval, hooks. */
  runner?: JobRunnerOptions;
}

export interface Relay {
  server: Server;
  app: AppContext;
  /** Places held calls (scheduled, queued, re-dials) and follows placed ones: callback/steps/job-runner.ts. */
  runner: JobRunner;
  /** Starts the background work: the lead webhook's delivery, the notifications (and the held calls' runner). main.ts calls it once listening. */
  start(): void;
  /** Stops accepting, lets in-flight requests finish, then releases the service connections. */
  close(): Promise<void>;
}

export function createRelay(deps: RelayDeps): Relay {
  const app = createAppContext(deps);
  const { config, log, metrics } = app;
  const runner = createJobRunner(app, deps.runner);

  const widget = loadStaticSet(config.http.widgetDir);
  if (!widget.paths.includes('widget.js')) log.warn('widget not built: /widget.js will answer 503 until `npm run build` has run', { widgetDir: config.http.widgetDir });
  let demo: StaticSet | undefined;
  const routes = routeTable(app, { widget, demo: () => (demo ??= loadStaticSet(config.http.demoDir)) });

  const handle = createRequestHandler({
    routes,
    origins: app.origins,
    trustedProxies: config.http.trustedProxies,
    metrics,
    readiness: app.readiness,
    log,
    writeLine: createRequestLog(log, createRepeatLines(log, config.log.repeatWindowMs, app.timers), redactWebhookToken),
  });

  const http = config.protect.http;
  const server = createServer(
    {
      headersTimeout: http.headersTimeoutMs,
      requestTimeout: http.requestTimeoutMs,
      keepAliveTimeout: http.keepAliveTimeoutMs,
      maxHeaderSize: 16 * 1024,
      // How often node looks for connections over headersTimeout/requestTimeout (slowloris). The
      // default, 30 s, would let slow connections live up to 30 s past their limit.
      connectionsCheckingInterval: Math.min(1_000, http.headersTimeoutMs),
    },
    (req, res) => {
      if (connections.arrivedTooLate(req)) {
        req.socket.destroy();
        return;
      }
      handle(req, res).catch((err) => {
        // Not reached by design (handle maps every failure to a reply; reply-batch.ts catches a
        // failed write): the last resort if the metric or the log line threw.
        log.error('request failed', { err });
        res.destroy();
      });
    },
  );
  const connections = drainConnections(server);
  // Beyond this, node closes new connections at once: a flood cannot exhaust file descriptors.
  server.maxConnections = http.maxConnections;
  guardConnections(server, {
    maxPerClient: http.maxConnectionsPerClient,
    isTrustedPeer: (address) => config.http.trustedProxies.has(address),
    onAnswer: (status) => metrics.requests.inc({ route: 'unparsed', method: 'other', status: String(status) }),
  });
  watchBacklogs(metrics.registry, { jobs: app.stores.jobs, now: () => app.now().getTime() });
  metrics.registry.onCollect(() => {
    server.getConnections((err, count) => {
      if (!err) metrics.openConnections.set(count);
    });
  });

  let closing: Promise<void> | undefined;
  return {
    server,
    app,
    runner,
    start() {
      app.delivery?.start();
      app.notifier?.start();
      app.erasureNotices?.start();
      runner.start();
    },
    close() {
      closing ??= drainAndClose();
      return closing;
    },
  };

  async function drainAndClose() {
    app.readiness.drain();
    // No new connection from now on, even while calls are still in hand below; the open ones go
    // as soon as they have nothing left to answer.
    const closed = new Promise<void>((resolve) => server.close(() => resolve()));
    connections.drain();
    // The calls in hand are placed (or left to their lease) before the service client closes.
    await runner.stop();
    await app.delivery?.stop();
    await app.notifier?.stop();
    app.erasureNotices?.stop();
    await closed;
    await app.client.close();
  }
}
