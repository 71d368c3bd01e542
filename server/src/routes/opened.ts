// POST /api/opened: the widget's beacon when its dialog first opens in a page view
// (navigator.sendBeacon, so the body comes as text/plain: a small JSON object). 204 whether the open
// was counted or not (an unknown department, a client or network over its limits): the beacon never
// reads the answer, and an error status would only be a red line in an ordinary visitor's console.
// A body the widget cannot send (not JSON, unknown fields) is still a 400 naming the field. The
// origin was checked by the relay (origin: 'required').
import { readBodyText } from '../http/body.ts';
import type { RouteModule } from './index.ts';
import { createOpenCounter, parseOpenBeacon } from '../report/count-open.ts';

/**
 * Room for anything the widget sends: three utm values of 200 UTF-16 units, a 200-character path
 * and a department id, even with every character escaped by JSON.stringify (6 bytes: \u0001) or
 * 3 bytes of UTF-8, is under 5 KB. The old 2 KB refused a page whose utm values were long in CJK.
 */
const BODY_LIMIT_BYTES = 8192;

export const openedRoutes: RouteModule = (app) => {
  const counter = createOpenCounter({
    report: app.stores.report,
    limits: app.stores.limits,
    hashSecret: app.config.hash.secret,
    timeZone: app.config.service.timeZone,
    departments: app.departments.settings,
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
