// The callback use-case: one visitor's request, from checks to the service and back. The order is
// deliberate:
//   0. (earlyRefusal, before the body is read) is this client, or one of its networks (IPv4 /24,
//      IPv6 /56 and /48), already over its rate or daily limit, or its refusals
//      (LIMIT_CLIENT_REFUSALS, LIMIT_NETWORK_REFUSALS)? Then it is refused whatever it asks, so a
//      flood is answered without reading, parsing or checking a body. It counts nothing: it is no
//      new limit, only an earlier answer. A repeat of a known Idempotency-Key skips it: the first
//      answer it is owed comes from step 2;
//   1. checks that need no state (office hours, consent, destination), so hostile input is refused
//      before it touches anything;
//   2. idempotency, before anything that counts or verifies: a repeat of a request gets the first
//      answer, even though its CAPTCHA token is spent and its number is now cooling down;
//   3. CAPTCHA (when enabled), then the limits (admit), then the service (place), then release the
//      number's in-flight slot, or refund everything counted when the service provably never got
//      the request; then the consent record, then the answer.
// Only a request that reached the service is remembered for its Idempotency-Key; one that provably
// never did gives back what it counted, and its key, so the visitor may simply try again.
import { randomUUID } from 'node:crypto';
import type { AppContext } from '../app-context.ts';
import { CallTrackingError } from '../calltracking/errors.ts';
import { refusesOurCredentials, toRelayError } from '../calltracking/to-relay-error.ts';
import type { CallbackRequest } from '../contract.ts';
import { RelayError } from '../errors.ts';
import { maskPhone, type Logger } from '../log.ts';
import { createDestinationCache } from '../protect/destination-cache.ts';
import { requestFingerprint } from '../protect/idempotency.ts';
import type { IdempotencyTicket } from '../store/idempotency-store.ts';
import type { Refusal } from '../protect/limit-store.ts';
import { LimitRefusalError } from '../protect/limits.ts';
import { maskInternational, type Destination } from '../protect/phone-policy.ts';
import { createAnswers, metricOutcome, type CallbackOutcome } from './outcome.ts';
import { placeCallback } from './place-callback.ts';

/** The simulator and Ringostat both ring the agent first; the visitor's phone rings ~20–30 s later. */
const ESTIMATE_SECONDS = 30;

export interface CallbackInput {
  request: CallbackRequest;
  /** The allowed origin it came from: the site its limits and Idempotency-Key belong to. */
  origin: string;
  idempotencyKey: string | undefined;
  clientIp: string;
  userAgent: string | undefined;
  /** The HTTP request's logger. */
  log: Logger;
}

export interface Callbacks {
  /** The refusal a client already over its limits meets whatever it asks, or null (step 0). */
  earlyRefusal(clientIp: string, origin: string, idempotencyKey: string | undefined): Promise<Refusal | null>;
  request(input: CallbackInput): Promise<CallbackOutcome>;
}

/** What asking the service came to: no failure, or the failure and whether the service provably never got the request. */
interface Placed {
  failure: { error: RelayError; neverSent: boolean } | null;
}

export function createCallbacks(app: AppContext): Callbacks {
  const destinationOf = createDestinationCache(app.config);
  const answerOf = createAnswers();

  async function earlyRefusal(clientIp: string, origin: string, idempotencyKey: string | undefined): Promise<Refusal | null> {
    const blocked = await app.limiter.blockedClient(clientIp);
    // The key is looked up only for a blocked client: most requests carry one, few are blocked.
    if (blocked === null || (idempotencyKey !== undefined && (await app.idempotency.has(origin, idempotencyKey)))) return null;
    app.metrics.limiterRefusals.inc({ reason: blocked.reason });
    return blocked;
  }

  async function request(input: CallbackInput): Promise<CallbackOutcome> {
    const { request } = input;
    const office = app.office.stateAt(app.now());
    if (!office.openNow) {
      const nextOpenAt = office.nextOpenAt?.toISOString();
      throw new RelayError('closed', 'The office is closed now, so nobody could answer your call.', nextOpenAt ? { nextOpenAt } : {});
    }
    if (app.config.requireConsent && request.consent !== true) {
      throw new RelayError('consent_required', 'Please agree to be called before we place the call.', { field: 'consent' });
    }
    const destination = destinationOf(request.phone, request.country);

    let ticket: IdempotencyTicket | null = null;
    if (input.idempotencyKey !== undefined) {
      // The CAPTCHA token is a one-time credential, not part of what is asked for: a repeat that
      // carries a fresh token is still the same request.
      const { turnstileToken: _token, ...meaning } = request;
      const begun = await app.idempotency.begin(input.origin, input.idempotencyKey, requestFingerprint(meaning));
      if (begun.kind === 'replay') return { kind: 'replayed', answer: begun.reply };
      ticket = begun.ticket;
    }
    try {
      const outcome = await admitAndPlace(input, destination);
      // Refused before the service: nothing a repeat could duplicate, so the key is forgotten.
      // Otherwise a repeat must not ring anyone again, whatever the outcome was.
      if (outcome.kind === 'refused' || (outcome.kind === 'failed' && !outcome.reachedService)) await ticket?.abandon();
      else await ticket?.complete(answerOf(outcome));
      return outcome;
    } catch (err) {
      // Whatever broke, the key must not stay "in progress" until it expires.
      await ticket?.abandon();
      throw err;
    }
  }

  async function admitAndPlace(input: CallbackInput, destination: Destination): Promise<CallbackOutcome & { reachedService?: boolean }> {
    const phone = maskPhone(destination.e164);
    let admission;
    try {
      if (app.captcha) await app.captcha.verify(input.request.turnstileToken, { clientIp: input.clientIp, origin: input.origin, log: input.log.child({ phone }) });
      admission = await app.limiter.admit({ digits: destination.digits, clientIp: input.clientIp, site: input.origin });
    } catch (err) {
      if (err instanceof LimitRefusalError) return { kind: 'refused', refusal: err.refusal, phone };
      if (err instanceof RelayError) return { kind: 'failed', error: err, reachedService: false };
      throw err;
    }
    // Only an admitted request becomes a callback with an id of its own: a refused one (most of a
    // flood) is not worth the id and the child logger.
    const callbackId = randomUUID();
    const log = input.log.child({ callbackId, phone });
    let placed: Placed;
    try {
      placed = await place(input, destination, callbackId, log);
      // Nothing reached the service, so nothing happened: everything counted is given back.
      if (placed.failure?.neverSent) await admission.refund();
    } finally {
      await admission.release();
    }
    app.metrics.callbacks.inc({ outcome: metricOutcome(placed.failure?.error ?? null) });
    // The visitor may simply try again (with the same Idempotency-Key too: it is freed).
    if (placed.failure?.neverSent) throw placed.failure.error;
    if (placed.failure) return { kind: 'failed', error: placed.failure.error, reachedService: true };

    if (input.request.consent) {
      await app.consent
        .record({ at: app.now(), callbackId, origin: input.origin, text: input.request.consentText, e164: destination.e164 })
        .catch((err) => log.error('consent record not written', { err }));
    }
    return {
      kind: 'accepted',
      accepted: { status: 'accepted', requestId: callbackId, phoneMasked: maskInternational(destination.international), estimateSeconds: ESTIMATE_SECONDS },
    };
  }

  /** Asks the service to place the call. */
  async function place(input: CallbackInput, destination: Destination, callbackId: string, log: Logger): Promise<Placed> {
    const attribution = input.request.attribution ?? {};
    try {
      const { attempts } = await placeCallback(
        app.client,
        {
          caller: app.config.callback.caller,
          caller_type: app.config.callback.callerType,
          callee: destination.digits,
          callee_type: 'default',
          direction: app.config.callback.direction,
          manager_dst: app.config.callback.managerDst,
          projectId: app.config.calltracking.projectId,
          clientIp: input.clientIp,
          ...attribution,
          ...(input.userAgent && { clientUserAgent: input.userAgent.slice(0, 512) }),
        },
        log,
      );
      log.info('callback accepted', { attempts, origin: input.origin, utmSource: attribution.utmSource });
      app.accepted.add({ callbackId, digits: destination.digits, acceptedAt: app.now(), origin: input.origin });
      return { failure: null };
    } catch (err) {
      const failure = toRelayError(err);
      // A refusal of our own credentials needs the operator, not the visitor: log it as an error.
      const ours = refusesOurCredentials(err);
      log[ours ? 'error' : 'warn']('callback failed', { code: failure.code, err, ...(ours && { hint: 'check CALLTRACKING_AUTH_KEY and CALLTRACKING_PROJECT_ID' }) });
      return { failure: { error: failure, neverSent: err instanceof CallTrackingError && err.neverSent } };
    }
  }

  return { earlyRefusal, request };
}
