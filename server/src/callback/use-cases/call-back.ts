// The owner's actions on a lead from the owner view:
//   "call back now" on a missed or failed lead: a new job, requested as 'owner', due at once and
//     placed by the job runner like a booking: inside office hours, through the number's and the
//     site's limits at placement, followed to its outcome, told to the CRM and the report. A
//     number holds one pending booking, so a second click while the first waits is refused (409).
//   "never call this number": its keyed hash joins the never-call list (phone/never-call-list.ts).
// Neither shows the number to anyone: it comes from the kept call-back number or the job.
import { randomUUID } from 'node:crypto';
import type { CallbackDeps } from '../deps.ts';
import { RelayError } from '../../contract/errors.ts';
import { NO_PROGRESS, type CallbackJob, type NewCallbackJob } from '../job-store.ts';
import { INITIAL_STAGES, mayCallBack } from '../stages.ts';

export interface CallBackAnswer {
  status: 'scheduled';
  requestId: string;
  /** When the runner will place it (now, or the office's next opening), ISO 8601. */
  dueAt: string;
}

/** What the owner's actions on a lead use. */
type OwnerActionDeps = Pick<CallbackDeps, 'stores' | 'now' | 'lifecycle' | 'log'>;

async function leadOf(app: Pick<CallbackDeps, 'stores'>, callbackId: string): Promise<CallbackJob> {
  const job = await app.stores.jobs.get(callbackId);
  if (!job) throw new RelayError('not_found', 'There is no such lead (it may be older than the data is kept).');
  return job;
}

export async function callBack(app: OwnerActionDeps, callbackId: string, ownerIp: string): Promise<CallBackAnswer> {
  const lead = await leadOf(app, callbackId);
  if (!mayCallBack(lead.stage, lead.attempts)) {
    const why = lead.stage === 'failed' ? 'its call was refused while the visitor waited, and they were told so' : `this one is ${lead.stage}`;
    throw new RelayError('not_callable', `Only a missed or failed lead can be called back; ${why}.`);
  }
  const now = app.now().getTime();
  const e164 = lead.request.e164 ?? (await app.stores.callBackNumbers.get(callbackId, now));
  if (e164 === null) throw new RelayError('not_callable', 'This lead is too old to be called back from here: its number is no longer kept.');
  if (await app.stores.neverCall.has(lead.numberHash)) throw new RelayError('number_not_allowed', 'This number is on the never-call list.');
  const id = randomUUID();
  const job: NewCallbackJob = {
    callbackId: id,
    requestedAs: 'owner',
    stage: INITIAL_STAGES.owner,
    dueAt: now,
    numberHash: lead.numberHash,
    maskedNumber: lead.maskedNumber,
    cancelToken: null,
    // The lead's attribution and page stay with it (the report groups the call-back with its lead);
    // the address is the owner's, who asked for this call.
    request: { ...lead.request, e164, clientIp: ownerIp, userAgent: null },
    progress: { ...NO_PROGRESS, scheduledFor: now },
  };
  const added = await app.lifecycle.start(job);
  if (!added.ok) {
    if (added.reason === 'number_already_scheduled') throw new RelayError('already_scheduled', 'A call to this number is already waiting to be placed.');
    throw new Error(`callback id ${id} already taken`);
  }
  app.log.info('owner call-back requested', { callbackId: id, lead: callbackId });
  return { status: 'scheduled', requestId: id, dueAt: new Date(now).toISOString() };
}

export async function neverCall(app: OwnerActionDeps, callbackId: string): Promise<{ status: 'listed'; listedAt: string }> {
  const lead = await leadOf(app, callbackId);
  await app.stores.neverCall.add(lead.numberHash, app.now().getTime());
  const at = (await app.stores.neverCall.listedAt(lead.numberHash)) ?? app.now().getTime();
  app.log.info('number put on the never-call list', { lead: callbackId });
  return { status: 'listed', listedAt: new Date(at).toISOString() };
}
