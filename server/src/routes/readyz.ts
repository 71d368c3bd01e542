// GET /readyz: 200 when the relay can do its job (the service answers and we are not shutting
// down), 503 otherwise, so a balancer sends traffic elsewhere. Liveness is /healthz. The answer
// says ready or not, never why: the reason (the service's failure, draining) is for the operator,
// so it goes to the log once each time it changes, and the state to /metrics.
import type { AppContext } from '../app/app-context.ts';
import { json } from '../http/reply.ts';
import type { Handler } from '../http/router.ts';
import type { RouteModule } from './index.ts';

function readyz(app: AppContext): Handler {
  let lastReason: string | undefined;
  return async () => {
    const state = await app.readiness.check();
    app.metrics.ready.set(state.ready ? 1 : 0);
    if (state.reason !== lastReason) {
      if (state.reason !== undefined) app.log.warn('not ready', { reason: state.reason });
      else if (lastReason !== undefined) app.log.info('ready again', { was: lastReason });
      lastReason = state.reason;
    }
    return json(state.ready ? 200 : 503, { status: state.ready ? 'ready' : 'not_ready', checkedAt: new Date(state.checkedAt).toISOString() }, { 'cache-control': 'no-store' });
  };
}

export const readyzRoutes: RouteModule = (app) => [{ path: '/readyz', origin: 'none', methods: { GET: readyz(app) } }];
