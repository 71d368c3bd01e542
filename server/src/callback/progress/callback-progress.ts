// What became of one callback, as GET /api/callback/<requestId> answers it, from its two sources:
// a placed call's live steps (the progress tracker: SIP status, then the call log) and the job that
// holds it (held-progress.ts). The job decides while it waits (booked, held, a re-dial due) and once
// it is over; the tracker adds the live steps of a call being followed. A call placed by another
// relay sharing the store is adopted from its following job, so any relay can follow it.
import type { CallbackProgress } from '../../contract/contract.ts';
import type { CallbackDeps } from '../deps.ts';
import type { CallbackJob } from '../job-store.ts';
import { unknownCallback } from '../use-cases/cancel-callback.ts';
import { acceptedCallOfJob, progressOfJob, redialToCome } from './held-progress.ts';
import type { ProgressTracker } from './progress-tracker.ts';

export type ProgressDeps = Pick<CallbackDeps, 'accepted' | 'config' | 'now'> & { stores: Pick<CallbackDeps['stores'], 'jobs'>; progress: ProgressTracker };

/** The call's department, with DEPARTMENTS_FILE (a job's own progress names it already). */
const withDepartment = (progress: CallbackProgress, department: string | undefined): CallbackProgress => (department ? { ...progress, department } : progress);

/** The progress of `callbackId` as the site `origin` may see it; RelayError not_found for an unknown id or another site's call. */
export async function callbackProgress(app: ProgressDeps, callbackId: string, origin: string | null): Promise<CallbackProgress> {
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
    if (origin !== call.origin) throw unknownCallback();
    const placed = await app.progress.progress(callbackId);
    // A missed call with a re-dial waiting, or about to be booked: the widget shows the re-dial
    // and keeps asking.
    const redial = placed?.outcome === 'missed' ? await app.stores.jobs.get(callbackId) : undefined;
    if (redial?.state === 'pending' && redial.stage !== 'following') return progressOfJob(redial);
    const toCome = redial && redialToCome(redial, app.config, app.now().getTime());
    if (toCome) return withDepartment(toCome, call.department);
    if (placed) return withDepartment(placed, call.department);
  }
  job ??= await app.stores.jobs.get(callbackId);
  if (!job || job.request.origin !== origin) throw unknownCallback();
  return progressOfJob(job);
}
