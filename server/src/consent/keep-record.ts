// The consent record of an admitted request is kept before anything can ring the visitor's phone:
// before the service is asked to place the call, before a booking is stored, and so before a call
// held for later exists (a held call is the same request, with the same record). With
// REQUIRE_CONSENT the record is a condition of the call: one that cannot be written stops it, what
// its limits counted is given back, and the visitor is asked to try again (503). Without it, the
// call goes on and the operator is told by an error in the log.
//
// A record is never taken back: a request the service then refuses, or a booking that finds the
// number already booked, keeps its record. It proves what the visitor agreed to and when, not that
// a call was made.
import type { CallbackRequest } from '../contract/contract.ts';
import { RelayError } from '../contract/errors.ts';
import type { Admission } from '../limits/admission.ts';
import type { Logger } from '../log/index.ts';
import type { ConsentLog } from './consent-log.ts';

/** Seconds a visitor is asked to wait: a store that refused a write is usually back within seconds. */
const RETRY_AFTER_SECONDS = 10;

export interface ConsentOf {
  callbackId: string;
  /** The allowed origin the request came from: the site the visitor agreed on. */
  origin: string;
  request: Pick<CallbackRequest, 'consent' | 'consentText' | 'privacyUrl'>;
  e164: string;
}

/**
 * Writes the record of `of`. With REQUIRE_CONSENT, a record not written refunds (and releases)
 * `admission` and throws RelayError temporarily_unavailable; without, it is only logged. `log`: the
 * callback's logger, which masks the number.
 */
/** What keeping a record needs: the log, REQUIRE_CONSENT, the clock. */
export interface ConsentKeeping {
  consent: ConsentLog;
  config: { consent: { required: boolean } };
  now: () => Date;
}

export async function keepConsentRecord(app: ConsentKeeping, of: ConsentOf, admission: Admission, log: Logger): Promise<void> {
  const { request } = of;
  let failure: unknown;
  try {
    await app.consent.record({
      at: app.now(),
      callbackId: of.callbackId,
      origin: of.origin,
      consented: request.consent === true,
      text: request.consentText,
      privacyUrl: request.privacyUrl ?? null,
      e164: of.e164,
    });
    return;
  } catch (err) {
    failure = err;
  }
  const required = app.config.consent.required;
  log.error(required ? 'consent record not written: the call is neither placed nor booked (REQUIRE_CONSENT)' : 'consent record not written', { err: failure, origin: of.origin });
  if (!required) return;
  try {
    await admission.refund();
  } finally {
    await admission.release();
  }
  throw new RelayError('temporarily_unavailable', 'We could not save the record of your consent, so your call was neither placed nor booked. Please try again in a few seconds.', {
    retryAfter: RETRY_AFTER_SECONDS,
    cause: failure,
  });
}
