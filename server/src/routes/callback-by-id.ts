// /api/callback/<requestId>: one callback the visitor requested.
//   GET: what became of it (CallbackProgress, callback/progress/callback-progress.ts). The widget
//        polls it after the 202 and shows each step instead of a countdown.
//   DELETE with the Cancel-Token header: cancels a held call (callback/use-cases/cancel-callback.ts).
// It reads or changes one visitor's call, so like the request that placed it, it needs an allowed
// Origin (the relay's own pages count through Sec-Fetch-Site, http/origin.ts); a call placed from
// one site is invisible from another (the same 404 as an unknown id). The public contract calls a
// callback's id `requestId`; inside the relay it is the callbackId.
import type { AppContext } from '../app/app-context.ts';
import { cancelCallback, unknownCallback } from '../callback/use-cases/cancel-callback.ts';
import { CANCEL_TOKEN_HEADER } from '../contract/contract.ts';
import { json } from '../http/reply.ts';
import type { Handler } from '../http/router.ts';
import { callbackProgress } from '../callback/progress/callback-progress.ts';
import type { RouteModule } from './index.ts';

const noStore = Object.freeze({ 'cache-control': 'no-store' });
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

function callbackIdOf(params: Record<string, string>): string {
  const callbackId = params.requestId ?? '';
  if (!UUID.test(callbackId)) throw unknownCallback();
  return callbackId;
}

function progress(app: AppContext): Handler {
  return async (rc) => json(200, await callbackProgress(app, callbackIdOf(rc.params), rc.origin), noStore);
}

function cancel(app: AppContext): Handler {
  return async (rc) => {
    const token = rc.req.headers[CANCEL_TOKEN_HEADER];
    const cancelled = await cancelCallback(app, callbackIdOf(rc.params), rc.origin, typeof token === 'string' ? token : undefined);
    return json(200, cancelled, noStore);
  };
}

export const callbackByIdRoutes: RouteModule = (app) => [
  { path: /^\/api\/callback\/(?<requestId>[^/]{1,100})$/, origin: 'required', methods: { GET: progress(app), DELETE: cancel(app) } },
];
