// "Call me later": a visitor's booked time. Every check of an immediate call has run at request
// time (origin, consent, destination, CAPTCHA) and so do the visitor's own limits (its rate, its
// numbers, its networks: AdmitInput part 'visitor'); the number's and the site's limits are those
// of the moment the call is placed (job-runner). A number holds at most one pending booking. The
// job store keeps it durably; the owner is told (callback.scheduled, by the lifecycle).
import { randomUUID } from 'node:crypto';
import type { CallbackDeps } from '../deps.ts';
import { RelayError } from '../../contract/errors.ts';
import { maskPhone } from '../../log/index.ts';
import type { Destination } from '../../phone/phone-policy.ts';
import { admitRequest } from './admit-request.ts';
import { keepConsentRecord } from '../../consent/keep-record.ts';
import type { AddJobResult } from '../job-store.ts';
import { heldJob } from './held-job.ts';
import type { CallbackOutcome } from './outcome.ts';
import type { CallbackInput } from './request-callback.ts';

export async function bookCall(app: CallbackDeps, input: CallbackInput, destination: Destination, at: Date): Promise<CallbackOutcome> {
  const phone = maskPhone(destination.e164);
  const admitted = await admitRequest(app, input, destination, phone, 'visitor');
  if ('refused' in admitted) return admitted.refused;
  const { admission } = admitted;
  const callbackId = randomUUID();
  const log = input.log.child({ callbackId, phone });
  // The proof of consent before the booking: with REQUIRE_CONSENT, nothing is booked without it.
  await keepConsentRecord(app, { callbackId, origin: input.origin, request: input.request, e164: destination.e164 }, admission, log);
  const held = heldJob(app, input, destination, callbackId, 'scheduled', at.getTime());
  let added: AddJobResult;
  try {
    // The lifecycle tells the owner's CRM (callback.scheduled).
    added = await app.lifecycle.start(held.job);
  } catch (err) {
    await admission.refund();
    throw err;
  }
  if (!added.ok) {
    // Nothing was booked: what the visitor's try counted is given back.
    await admission.refund();
    if (added.reason === 'number_already_scheduled') {
      throw new RelayError('already_scheduled', 'A call to this number is already booked. Cancel it first to pick another time.', { field: 'phone' });
    }
    throw new Error(`callback id ${callbackId} already taken`);
  }
  log.info('callback scheduled', { scheduledFor: at.toISOString(), origin: input.origin });
  app.metrics.heldCalls.inc({ kind: 'scheduled', outcome: 'booked' });
  return { kind: 'scheduled', callbackId, at, cancelToken: held.cancelToken!, maskedNumber: held.job.maskedNumber };
}
