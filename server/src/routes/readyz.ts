// GET /readyz: 200 when the relay can do its job (the service answers and we are not shutting
// down), 503 otherwise, so a balancer sends traffic elsewhere. Liveness is /healthz.
import type { AppContext } from '../app-context.ts';
import { json } from '../http/reply.ts';
import type { Handler } from '../http/router.ts';

export function readyzRoute(app: AppContext): Handler {
  return async () => {
    const state = await app.readiness.check();
    app.metrics.ready.set(state.ready ? 1 : 0);
    return json(
      state.ready ? 200 : 503,
      { status: state.ready ? 'ready' : 'not_ready', ...(state.reason && { reason: state.reason }), checkedAt: new Date(state.checkedAt).toISOString() },
      { 'cache-control': 'no-store' },
    );
  };
}
