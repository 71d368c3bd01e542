// The honest state machine of one visitor's request: form → sending → accepted (then the call's
// real progress, see progress/track.ts). Client checks run first; the relay's answer is authoritative.
import { useRef, useState } from 'preact/hooks';
import type { CallbackRequest } from '../../../server/src/contract.ts';
import { newIdempotencyKey, type RelayApi } from '../api.ts';
import type { UiContext } from './ui-context.ts';
import { fieldOf, outcomeUnknown, type ErrorCodeAny, type FlowError } from './fields.ts';
import { checkPhone, formatInternational, parsePhone, toE164 } from './phone/parse.ts';

export interface FormValues {
  phone: string;
  country: string;
  consent: boolean;
  turnstileToken: string | null;
}

export type Phase =
  | { name: 'form'; error: FlowError | null }
  | { name: 'sending' }
  | { name: 'accepted'; requestId: string; readback: string; estimateSeconds: number };

export function useCallbackFlow(ctx: UiContext, api: RelayApi) {
  const [phase, setPhase] = useState<Phase>({ name: 'form', error: null });
  // One key per attempt; kept only while the previous attempt's outcome is unknown and the body is
  // the same, so a re-send is recognised by the relay and never rings twice.
  const attempt = useRef<{ body: string; key: string } | null>(null);

  async function submit(values: FormValues): Promise<void> {
    const { config } = ctx;
    const parsed = parsePhone(values.phone, values.country);
    const problem = checkPhone(parsed);
    // The light client checks, in the order the visitor sees the fields.
    const early: ErrorCodeAny | null = problem
      ? problem === 'empty'
        ? 'invalid_phone'
        : problem
      : config.consentText && !values.consent
        ? 'consent_required'
        : config.turnstileSiteKey && !values.turnstileToken
          ? 'captcha_required'
          : null;
    if (early) return setPhase({ name: 'form', error: { code: early, field: fieldOf(early) } });

    // Read now, not at page load: the tracking script may have written its cookies after we ran.
    const attribution = ctx.readAttribution(ctx.cookiesAtLoad, location.href, ctx.pageAtLoad);
    const body: CallbackRequest = {
      phone: toE164(parsed) ?? values.phone.replace(/[^\d+]/g, ''),
      locale: config.lang,
    };
    if (/^[A-Z]{2}$/.test(values.country)) body.country = values.country;
    if (config.consentText) body.consent = values.consent;
    if (Object.keys(attribution).length) body.attribution = attribution;
    // The relay accepts page addresses up to 2,048 characters; a longer one is cut, still a URL.
    body.pageUrl = location.href.slice(0, 2048);
    // Taken before the token is added: each attempt has a fresh token, yet a re-send is the same request.
    const fingerprint = JSON.stringify(body);
    if (values.turnstileToken) body.turnstileToken = values.turnstileToken;
    const key = attempt.current?.body === fingerprint ? attempt.current.key : newIdempotencyKey();
    attempt.current = { body: fingerprint, key };

    ctx.emit('submit', { country: body.country ?? '', lang: config.lang });
    setPhase({ name: 'sending' });
    const result = await api.requestCallback(body, key);
    if (result.ok) {
      attempt.current = null;
      ctx.emit('success', { requestId: result.data.requestId, estimateSeconds: result.data.estimateSeconds });
      return setPhase({
        name: 'accepted',
        requestId: result.data.requestId,
        readback: formatInternational(parsed),
        estimateSeconds: Math.max(0, Math.round(result.data.estimateSeconds)),
      });
    }
    if (!outcomeUnknown(result.code)) attempt.current = null;
    ctx.emit('error', { code: result.code });
    const { code, retryAfter, nextOpenAt } = result;
    setPhase({ name: 'form', error: { code, field: fieldOf(code, result.field), retryAfter, nextOpenAt } });
  }

  return {
    phase,
    submit,
    /** Back to the form (after "try again"); the visitor's number stays filled in. */
    reset: () => setPhase({ name: 'form', error: null }),
  };
}
