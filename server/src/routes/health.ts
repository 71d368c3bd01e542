// GET /healthz: the process is up and serving. (Readiness, which asks the service, is /readyz.)
import { json } from '../http/reply.ts';
import type { Handler } from '../http/router.ts';
import type { RouteModule } from './index.ts';

const health: Handler = () => json(200, { status: 'ok' }, { 'cache-control': 'no-store' });

export const healthRoutes: RouteModule = () => [{ path: '/healthz', origin: 'none', methods: { GET: health } }];
