// GET /metrics in the Prometheus text format. It shows call volumes, refusals and the breaker
// opening, so it is never public: with METRICS_TOKEN set it needs `Authorization: Bearer <token>`;
// without, only a client on this machine that talks to the relay directly may read it (a loopback
// peer and no X-Forwarded-For/Forwarded: a proxy on the same host relays the public with a loopback
// address, and adds those headers). Anyone else gets the very 404 of an unknown path.
import type { IncomingMessage } from 'node:http';
import type { AppContext } from '../app/app-context.ts';
import type { Handler, RequestContext } from '../http/router.ts';
import { secretMatcher } from '../lib/secret-match.ts';
import type { RouteModule } from './index.ts';

function metrics(app: AppContext): Handler {
  return async () => ({
    status: 200,
    body: await app.metrics.registry.render(),
    headers: { 'content-type': app.metrics.registry.contentType, 'cache-control': 'no-store' },
  });
}

export function isDirectLoopback(req: IncomingMessage): boolean {
  const peer = req.socket.remoteAddress ?? '';
  const loopback = peer === '::1' || peer.startsWith('127.') || peer.startsWith('::ffff:127.');
  return loopback && req.headers['x-forwarded-for'] === undefined && req.headers.forwarded === undefined;
}

function metricsAccess(token: string | null): (rc: RequestContext) => boolean {
  if (token === null) return (rc) => isDirectLoopback(rc.req);
  const isToken = secretMatcher(token);
  return ({ req }) => {
    const given = /^Bearer\s+(\S+)$/i.exec(req.headers.authorization ?? '')?.[1];
    return given !== undefined && isToken(given);
  };
}

export const metricsRoutes: RouteModule = (app) => [{ path: '/metrics', origin: 'none', access: metricsAccess(app.config.protect.metricsToken), methods: { GET: metrics(app) } }];
