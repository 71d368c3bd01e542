// A call placed now: CAPTCHA, all of its limits (admit), the service (place), then its in-flight
// slot is released. When the service provably never got the request (the connection never opened,
// even on the retry placeCallback makes), nothing happened: with QUEUE_MAX_WAIT_SECONDS > 0 the
// call is held (a 'queued' job, its limits kept counted, the owner told) and the job runner places
// it as soon as the service answers again; the visitor gets 202 queued instead of 503. With 0,
// everything counted is given back and the visitor may try again.
//
// Every call the service answered becomes a job through lifecycle.start, so the report, the lead
// webhook and the notifications hear of it as listeners, as of any other: taken → following (or
// following then ended, when nothing would come of following), refused → failed. Never ring twice:
// the job is written only after the service answered, and only in a stage the job runner never
// places — following (the call log is read; only a miss with a re-dial left is placed again, as a
// re-dial) or a final one. A relay that dies between the two loses the follow, never rings again.
import { randomUUID } from 'node:crypto';
import type { CallbackDeps } from '../deps.ts';
import { CallTrackingError } from '../../calltracking/errors.ts';
import { refusesOurCredentials, toRelayError } from '../../calltracking/to-relay-error.ts';
import type { RelayError } from '../../contract/errors.ts';
import { maskPhone, type Logger } from '../../log/index.ts';
import { maskInternational, type Destination } from '../../phone/phone-policy.ts';
import { admitRequest } from './admit-request.ts';
import { keepConsentRecord } from '../../consent/keep-record.ts';
import { callbackParams } from '../steps/callback-params.ts';
import { placedNowJob } from '../steps/follow-outcome.ts';
import type { JobStep, NewCallbackJob } from '../job-store.ts';
import { heldJob } from './held-job.ts';
import { metricOutcome, type CallbackOutcome } from './outcome.ts';
import { placeCallback } from '../steps/place-callback.ts';
import type { CallbackInput } from './request-callback.ts';

/** The simulator and Ringostat both ring the agent first; the visitor's phone rings ~20–30 s later. */
const ESTIMATE_SECONDS = 30;

/** What asking the service came to: no failure, or the failure and whether the service provably never got the request. */
interface Placed {
  failure: { error: RelayError; neverSent: boolean } | null;
}

export async function placeNow(app: CallbackDeps, input: CallbackInput, destination: Destination): Promise<CallbackOutcome> {
  const phone = maskPhone(destination.e164);
  const admitted = await admitRequest(app, input, destination, phone, 'all');
  if ('refused' in admitted) return admitted.refused;
  const { admission } = admitted;
  // Only an admitted request becomes a callback with an id of its own: a refused one (most of a
  // flood) is not worth the id and the child logger.
  const callbackId = randomUUID();
  const log = input.log.child({ callbackId, phone });
  // The proof of consent first: with REQUIRE_CONSENT, nothing reaches the service without it.
  await keepConsentRecord(app, { callbackId, origin: input.origin, request: input.request, e164: destination.e164 }, admission, log);
  let placed: Placed;
  let held: CallbackOutcome | null = null;
  try {
    placed = await place(app, input, destination, callbackId, log);
    if (placed.failure?.neverSent) {
      held = app.config.held.queueMaxWaitSec > 0 ? await holdForLater(app, input, destination, callbackId, log) : null;
      // Nothing reached the service and nothing is held: everything counted is given back.
      if (held === null) await admission.refund();
    }
  } finally {
    await admission.release();
  }
  app.metrics.callbacks.inc({ outcome: metricOutcome(placed.failure?.error ?? null) });
  if (held) return held;
  // The visitor may simply try again (with the same Idempotency-Key too: it is freed).
  if (placed.failure?.neverSent) throw placed.failure.error;
  const lead = heldJob(app, input, destination, callbackId, 'now', app.now().getTime()).job;
  if (placed.failure) {
    await startJob(app, log, { ...lead, stage: 'failed', outcome: placed.failure.error.code });
    return { kind: 'failed', error: placed.failure.error, reachedService: true };
  }
  // Followed to its end, so a call nobody answered is re-dialled and the owner hears of it.
  await startJob(app, log, ...placedNowJob(app, lead, app.now().getTime()));
  return {
    kind: 'accepted',
    accepted: { status: 'accepted', requestId: callbackId, phoneMasked: maskInternational(destination.international), estimateSeconds: ESTIMATE_SECONDS },
  };
}

/** Starts the job of a call the service answered. Never throws: the call is placed (or refused) already, and a lost job costs its follow and its counts, not the call. */
async function startJob(app: CallbackDeps, log: Logger, job: NewCallbackJob, ...then: JobStep[]): Promise<void> {
  try {
    const added = await app.lifecycle.start(job, ...then);
    if (!added.ok) log.warn('call not kept as a job', { reason: added.reason });
  } catch (err) {
    log.error('call not kept as a job', { err });
  }
}

/** The service is unreachable: the call is kept as a 'queued' job, due now; the job runner retries it with backoff. */
async function holdForLater(app: CallbackDeps, input: CallbackInput, destination: Destination, callbackId: string, log: Logger): Promise<CallbackOutcome | null> {
  const held = heldJob(app, input, destination, callbackId, 'queued', app.now().getTime());
  try {
    // The lifecycle tells the owner's CRM (callback.queued).
    const added = await app.lifecycle.start(held.job);
    if (!added.ok) return null;
  } catch (err) {
    // The store failed too: nothing is held, so the visitor is told the service is unavailable.
    log.error('could not hold the call for later', { err });
    return null;
  }
  log.warn('service unreachable: call held for later', { origin: input.origin });
  app.metrics.heldCalls.inc({ kind: 'queued', outcome: 'held' });
  return { kind: 'queued', callbackId, cancelToken: held.cancelToken!, maskedNumber: held.job.maskedNumber };
}

/** Asks the service to place the call. */
async function place(app: CallbackDeps, input: CallbackInput, destination: Destination, callbackId: string, log: Logger): Promise<Placed> {
  const attribution = input.request.attribution ?? {};
  try {
    const department = app.departments.requested(input.request.department).id;
    const params = callbackParams(app.config, { digits: destination.digits, clientIp: input.clientIp, userAgent: input.userAgent, attribution, department });
    const { attempts } = await placeCallback(app.client, params, log);
    log.info('callback accepted', { attempts, origin: input.origin, utmSource: attribution.utmSource });
    app.accepted.add({ callbackId, digits: destination.digits, acceptedAt: app.now(), origin: input.origin, ...(app.departments.settings.fromFile && { department }) });
    return { failure: null };
  } catch (err) {
    const failure = toRelayError(err);
    // A refusal of our own credentials needs the operator, not the visitor: log it as an error.
    const ours = refusesOurCredentials(err);
    log[ours ? 'error' : 'warn']('callback failed', { code: failure.code, err, ...(ours && { hint: 'check CALLTRACKING_AUTH_KEY and CALLTRACKING_PROJECT_ID' }) });
    return { failure: { error: failure, neverSent: err instanceof CallTrackingError && err.neverSent } };
  }
}
