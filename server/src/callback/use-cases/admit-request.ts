// The checks a request meets before it may cost anything: the CAPTCHA (when enabled), then its
// limits. Shared by a call placed now (every limit) and a booking (the visitor's own limits).
import type { CallbackDeps } from '../deps.ts';
import { RelayError } from '../../contract/errors.ts';
import type { Admission } from '../../limits/admission.ts';
import { LimitRefusalError } from '../../limits/refusal.ts';
import type { AdmitPart } from '../../limits/plan.ts';
import type { Destination } from '../../phone/phone-policy.ts';
import type { CallbackOutcome } from './outcome.ts';
import type { CallbackInput } from './request-callback.ts';

/** The admission, or the outcome of a request refused by the CAPTCHA or a limit. `phone`: masked, for logs. */
export async function admitRequest(
  app: Pick<CallbackDeps, 'captcha' | 'limiter'>,
  input: CallbackInput,
  destination: Destination,
  phone: string,
  part: AdmitPart,
): Promise<{ admission: Admission } | { refused: CallbackOutcome }> {
  try {
    if (app.captcha) await app.captcha.verify(input.request.turnstileToken, { clientIp: input.clientIp, origin: input.origin, log: input.log.child({ phone }) });
    return { admission: await app.limiter.admit({ digits: destination.digits, clientIp: input.clientIp, site: input.origin, part }) };
  } catch (err) {
    if (err instanceof LimitRefusalError) return { refused: { kind: 'refused', refusal: err.refusal, phone } };
    if (err instanceof RelayError) return { refused: { kind: 'failed', error: err, reachedService: false } };
    throw err;
  }
}
