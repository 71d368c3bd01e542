// GET /api/callback/<requestId>: what became of a callback the visitor requested (CallbackProgress).
// The widget polls it after the 202 and shows each step instead of a countdown. It reads one
// visitor's call, so like the request that placed it, it needs an allowed Origin (the relay's own
// pages count through Sec-Fetch-Site, http/origin.ts); a call placed from one site is invisible
// from another (the same 404 as an unknown id).
import type { AppContext } from '../app-context.ts';
import { RelayError } from '../errors.ts';
import { json } from '../http/reply.ts';
import type { Handler } from '../http/router.ts';
import { createCallLogWatch } from '../outcome/call-log-watch.ts';
import { createProgressTracker } from '../outcome/progress-tracker.ts';
import type { RouteModule } from './index.ts';

const noStore = Object.freeze({ 'cache-control': 'no-store' });
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

function callbackProgress(app: AppContext): Handler {
  const now = () => app.now().getTime();
  const tracker = createProgressTracker({
    accepted: app.accepted,
    agents: app.agents,
    watch: createCallLogWatch({ client: app.client, pollMs: app.config.outcome.pollMs, now, log: app.log, shared: app.stores.shared }),
    managerDst: app.config.callback.managerDst,
    ringSeconds: app.config.outcome.ringSeconds,
    pollMs: app.config.outcome.pollMs,
    now,
    log: app.log,
  });

  return async (rc) => {
    // The public contract calls a callback's id `requestId`; inside the relay it is the callbackId.
    const callbackId = rc.params.requestId ?? '';
    const notFound = () => new RelayError('not_found', 'There is no callback request with this id (or it is too old to track).');
    if (!UUID.test(callbackId)) throw notFound();
    const call = app.accepted.get(callbackId);
    if (!call || rc.origin !== call.origin) throw notFound();
    const progress = await tracker.progress(callbackId);
    if (!progress) throw notFound();
    // The relay adds the CORS headers of an allowed origin to every /api answer.
    return json(200, progress, noStore);
  };
}

export const callbackProgressRoutes: RouteModule = (app) => [
  { path: /^\/api\/callback\/(?<requestId>[^/]{1,100})$/, origin: 'required', methods: { GET: callbackProgress(app) } },
];
