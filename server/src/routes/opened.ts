// POST /api/opened: the widget's beacon when its dialog first opens in a page view
// (navigator.sendBeacon, so the body comes as text/plain: a small JSON object). 204 when counted;
// 429 when this client or its network has counted enough for now (the beacon never reads the
// answer: a flood is simply not counted). The origin was checked by the relay (origin: 'required').
import { readBodyText } from '../http/body.ts';
import type { RouteModule } from './index.ts';
import { createOpenCounter, parseOpenBeacon } from '../report/count-open.ts';

/** The widget's beacon is well under 1 KB: five short values. */
const BODY_LIMIT_BYTES = 2048;

export const openedRoutes: RouteModule = (app) => {
  const counter = createOpenCounter({
    report: app.stores.report,
    limits: app.stores.limits,
    hashSecret: app.config.hash.secret,
    timeZone: app.config.service.timeZone,
    now: () => app.now().getTime(),
  });
  return [
    {
      path: '/api/opened',
      origin: 'required',
      methods: {
        POST: async (rc) => {
          rc.repeatable = true;
          await counter.count(parseOpenBeacon(await readBodyText(rc.req, BODY_LIMIT_BYTES)), rc.clientIp);
          return { status: 204, headers: { 'cache-control': 'no-store' } };
        },
      },
    },
  ];
};
