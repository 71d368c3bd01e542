// The callback use-case: one visitor's request, from checks to the service (or the job store) and
// back. The order of its checks is deliberate (a flood answered before its body is read, hostile
// input refused before it touches state, a repeat answered before anything counts): this folder's
// README ("One visitor's request, in order").
import type { CallbackDeps } from '../deps.ts';
import type { CallbackRequest } from '../../contract/contract.ts';
import { RelayError } from '../../contract/errors.ts';
import type { Logger } from '../../log/index.ts';
import { createDestinationCache } from '../../phone/destination-cache.ts';
import { requestFingerprint } from '../../idempotency/request-key.ts';
import type { Refusal } from '../../limits/limit-store.ts';
import { checkScheduledFor } from '../../schedule/scheduled-for.ts';
import type { IdempotencyTicket } from '../../idempotency/idempotency-store.ts';
import { bookCall } from './book-call.ts';
import { createAnswers, type CallbackOutcome } from './outcome.ts';
import { placeNow } from './place-now.ts';
import { numberHmac } from '../../phone/number-hash.ts';
import { maskPhone } from '../../log/index.ts';

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

export function createCallbacks(app: CallbackDeps): Callbacks {
  const destinationOf = createDestinationCache({ ...app.config.phone, callback: app.config.service.callback, departments: app.config.departments.list, route: app.config.route });
  app.copies.hold('parsed numbers', (erased) => destinationOf.forgetNumber(erased.e164));
  const answerOf = createAnswers();

  async function earlyRefusal(clientIp: string, origin: string, idempotencyKey: string | undefined): Promise<Refusal | null> {
    const blocked = await app.limiter.blockedClient(clientIp);
    // The key is looked up only for a blocked client: most requests carry one, few are blocked.
    if (blocked === null || (idempotencyKey !== undefined && (await app.idempotency.has(origin, idempotencyKey)))) return null;
    app.metrics.limiterRefusals.inc({ reason: blocked.reason });
    return blocked;
  }

  /**
   * A call now to a number its own counts refused moments ago (held in memory, limits/limiter.ts):
   * that refusal, answered before the never-call list, the Idempotency-Key, the CAPTCHA and the
   * limit tables are asked (with Redis, a flood of one number from ever-new addresses then waits
   * for no round trip after its body). Both refusals place no call, so a number on the never-call
   * list that is also on cooldown hears 429 until the cooldown ends, then number_not_allowed. A
   * known Idempotency-Key is not refused here: a repeat is owed its first answer (step 2).
   */
  async function heldNumberRefusal(input: CallbackInput, digits: string): Promise<Refusal | null> {
    const held = app.limiter.heldNumber(digits);
    if (held === null || (input.idempotencyKey !== undefined && (await app.idempotency.has(input.origin, input.idempotencyKey)))) return null;
    app.limiter.refusedHeld(input.clientIp, held);
    return held;
  }

  async function request(input: CallbackInput): Promise<CallbackOutcome> {
    const { request } = input;
    const now = app.now();
    // A booked time must fall inside its department's office hours; a call now needs it open now.
    const hours = app.departments.officeOf(app.departments.requested(request.department));
    const bookedFor =
      request.scheduledFor === undefined ? null : checkScheduledFor(request.scheduledFor, now, { maxDays: app.config.held.scheduleMaxDays, windows: hours.windowsAt(now) });
    const office = hours.stateAt(now);
    if (bookedFor === null && !office.openNow) {
      const nextOpenAt = office.nextOpenAt?.toISOString();
      throw new RelayError('closed', 'The office is closed now, so nobody could answer your call.', nextOpenAt ? { nextOpenAt } : {});
    }
    if (app.config.consent.required && request.consent !== true) {
      throw new RelayError('consent_required', 'Please agree to be called before we place the call.', { field: 'consent' });
    }
    const destination = destinationOf(request.phone, request.country);
    const held = bookedFor === null ? await heldNumberRefusal(input, destination.digits) : null;
    if (held) return { kind: 'refused', refusal: held, phone: maskPhone(destination.e164) };
    // The owner's never-call list (keyed hashes, shared by every relay): refused like the project's own lines.
    if (await app.stores.neverCall.has(numberHmac(app.config.hash.secret, destination.e164))) {
      throw new RelayError('number_not_allowed', 'We cannot call this number.', { field: 'phone' });
    }

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
      const outcome = bookedFor === null ? await placeNow(app, input, destination) : await bookCall(app, input, destination, bookedFor);
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

  return { earlyRefusal, request };
}
