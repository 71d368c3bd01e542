// /api/callback/<requestId>: one callback the visitor requested.
//   GET: what became of it (CallbackProgress). The widget polls it after the 202 and shows each
//        step instead of a countdown: a placed call through the accepted calls and the call log,
//        a held one (booked, queued, re-dial, failed, cancelled) through its job.
//   DELETE with the Cancel-Token header: cancels a held call (callback/use-cases/cancel-callback.ts).
// It reads or changes one visitor's call, so like the request that placed it, it needs an allowed
// Origin (the relay's own pages count through Sec-Fetch-Site, http/origin.ts); a call placed from
// one site is invisible from another (the same 404 as an unknown id). The public contract calls a
// callback's id `requestId`; inside the relay it is the callbackId.
import type { AppContext } from '../app/app-context.ts';
import { cancelCallback, unknownCallback } from '../callback/use-cases/cancel-callback.ts';
import { CANCEL_TOKEN_HEADER, type CallbackProgress } from '../contract.ts';
import { json } from '../http/reply.ts';
import type { Handler } from '../http/router.ts';
import { acceptedCallOfJob, progressOfJob, redialToCome } from '../callback/progress/held-progress.ts';
import type { CallbackJob } from '../callback/job-store.ts';
import type { RouteModule } from './index.ts';

const noStore = Object.freeze({ 'cache-control': 'no-store' });
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

function callbackIdOf(params: Record<string, string>): string {
  const callbackId = params.requestId ?? '';
  if (!UUID.test(callbackId)) throw unknownCallback();
  return callbackId;
}

/** The call's department, with DEPARTMENTS_FILE (a job's own progress names it already). */
const withDepartment = (progress: CallbackProgress, department: string | undefined): CallbackProgress => (department ? { ...progress, department } : progress);

function progress(app: AppContext): Handler {
  return async (rc) => {
    const callbackId = callbackIdOf(rc.params);
    let call = app.accepted.get(callbackId);
    let job: CallbackJob | undefined;
    if (!call) {
      // Placed by another relay sharing the store: its follow job says what the tracker needs.
      job = await app.stores.jobs.get(callbackId);
      const adopted = job && acceptedCallOfJob(job);
      if (adopted) {
        app.accepted.add(adopted);
        call = adopted;
      }
    }
    if (call) {
      if (rc.origin !== call.origin) throw unknownCallback();
      const placed = await app.progress.progress(callbackId);
      // A missed call with a re-dial waiting, or about to be booked: the widget shows the re-dial
      // and keeps asking.
      const redial = placed?.outcome === 'missed' ? await app.stores.jobs.get(callbackId) : undefined;
      if (redial?.state === 'pending' && redial.stage !== 'following') return json(200, progressOfJob(redial), noStore);
      const toCome = redial && redialToCome(redial, app.config, app.now().getTime());
      if (toCome) return json(200, withDepartment(toCome, call.department), noStore);
      if (placed) return json(200, withDepartment(placed, call.department), noStore);
    }
    job ??= await app.stores.jobs.get(callbackId);
    if (!job || job.request.origin !== rc.origin) throw unknownCallback();
    return json(200, progressOfJob(job), noStore);
  };
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
