// GET /api/callback/<requestId>: what became of a callback the visitor requested (CallbackProgress).
// The widget polls it after the 202 and shows each step instead of a countdown. Read-only, so the
// Origin is optional (as for /api/status) but a foreign one is refused; a call placed from one site
// is invisible from another (the same 404 as an unknown id).
import type { AppContext } from '../app-context.ts';
import { RelayError } from '../errors.ts';
import { json } from '../http/reply.ts';
import type { Handler, Route } from '../http/router.ts';
import { createCallLogWatch } from '../outcome/call-log-watch.ts';
import { createProgressTracker } from '../outcome/progress-tracker.ts';

const noStore = Object.freeze({ 'cache-control': 'no-store' });
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

function callbackProgress(app: AppContext): Handler {
  const now = () => app.now().getTime();
  const tracker = createProgressTracker({
    accepted: app.accepted,
    agents: app.agents,
    watch: createCallLogWatch({ client: app.client, pollMs: app.config.outcome.pollMs, now, log: app.log }),
    managerDst: app.config.callback.managerDst,
    ringSeconds: app.config.outcome.ringSeconds,
    pollMs: app.config.outcome.pollMs,
    now,
    log: app.log,
  });

  return async (rc) => {
    const origin = app.origins.check(rc.req, { required: false });
    const requestId = rc.params.requestId ?? '';
    const notFound = () => new RelayError('not_found', 'There is no callback request with this id (or it is too old to track).');
    if (!UUID.test(requestId)) throw notFound();
    const call = app.accepted.get(requestId);
    if (!call || (origin !== null && origin !== call.origin)) throw notFound();
    const progress = await tracker.progress(requestId);
    if (!progress) throw notFound();
    // The relay adds the CORS headers of an allowed origin to every /api answer.
    return json(200, progress, noStore);
  };
}

export function callbackProgressRoute(app: AppContext): Route {
  return { path: /^\/api\/callback\/(?<requestId>[^/]{1,100})$/, methods: { GET: callbackProgress(app) } };
}
