// GET /metrics in the Prometheus text format. With METRICS_TOKEN set it needs
// `Authorization: Bearer <token>`; without, keep it away from the public (see README: nginx).
import type { AppContext } from '../app-context.ts';
import { RelayError } from '../errors.ts';
import type { Handler } from '../http/router.ts';
import { secretMatcher } from '../util/secret.ts';

export function metricsRoute(app: AppContext): Handler {
  const token = app.config.protect.metricsToken;
  const isToken = token ? secretMatcher(token) : null;
  return async (rc) => {
    if (isToken) {
      const given = /^Bearer\s+(\S+)$/i.exec(rc.req.headers.authorization ?? '')?.[1];
      // 404, not 401: without the token the endpoint does not announce itself.
      if (!given || !isToken(given)) throw new RelayError('not_found', 'Nothing is served at /metrics.');
    }
    return {
      status: 200,
      body: await app.metrics.registry.render(),
      headers: { 'content-type': app.metrics.registry.contentType, 'cache-control': 'no-store' },
    };
  };
}
