// GET /healthz: the process is up and serving. (Readiness, which asks the service, is /readyz.)
import { json } from '../http/reply.js';
import type { Handler } from '../http/router.js';

export const healthRoute: Handler = () => json(200, { status: 'ok' }, { 'cache-control': 'no-store' });
