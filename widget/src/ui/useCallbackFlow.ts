// The honest state machine of one visitor's request: form → sending → accepted (then the call's
// real progress, see useCallProgress). Client checks run first; the relay's answer is authoritative.
import { useRef, useState } from 'preact/hooks';
import type { CallbackRequest } from '../../../server/src/contract';
import { newIdempotencyKey, type RelayApi } from '../api';
import type { UiContext } from './ui-context';
import { fieldOf, outcomeUnknown, type FlowError } from './fields';
import { checkPhone, formatInternational, parsePhone, toE164 } from './phone/parse';

export interface FormValues {
  phone: string;
  country: string;
  consent: boolean;
  turnstileToken: string | null;
}

export type Phase =
  | { name: 'form'; error: FlowError | null }
  | { name: 'sending' }
  | { name: 'accepted'; requestId: string; readback: string; estimateSeconds: number; acceptedAt: number };

function pageUrl(href: string): string | undefined {
  if (href.length <= 2048) return href;
  try {
    const url = new URL(href);
    const short = url.origin + url.pathname;
    return short.length <= 2048 ? short : undefined;
  } catch {
    return undefined;
  }
}

export function useCallbackFlow(ctx: UiContext, api: RelayApi) {
  const [phase, setPhase] = useState<Phase>({ name: 'form', error: null });
  // One key per attempt; kept only while the previous attempt's outcome is unknown and the body is
  // the same, so a re-send is recognised by the relay and never rings twice.
  const attempt = useRef<{ body: string; key: string } | null>(null);

  async function submit(values: FormValues): Promise<void> {
    const { config } = ctx;
    const parsed = parsePhone(values.phone, values.country);
    const problem = checkPhone(parsed);
    if (problem) {
      const code = problem === 'empty' ? 'invalid_phone' : problem;
      setPhase({ name: 'form', error: { code, field: 'phone' } });
      return;
    }
    if (config.consentText && !values.consent) {
      setPhase({ name: 'form', error: { code: 'consent_required', field: 'consent' } });
      return;
    }
    if (config.turnstileSiteKey && !values.turnstileToken) {
      setPhase({ name: 'form', error: { code: 'captcha_required', field: 'captcha' } });
      return;
    }

    // Read now, not at page load: the tracking script may have written its cookies after we ran.
    const attribution = ctx.readAttribution(globalThis.location?.href ?? '', ctx.pageAtLoad);
    const body: CallbackRequest = {
      phone: toE164(parsed) ?? values.phone.replace(/[^\d+]/g, ''),
      locale: config.lang,
    };
    if (/^[A-Z]{2}$/.test(values.country)) body.country = values.country;
    if (config.consentText) body.consent = values.consent;
    if (Object.keys(attribution).length) body.attribution = attribution;
    const url = pageUrl(globalThis.location?.href ?? '');
    if (url) body.pageUrl = url;
    const fingerprint = JSON.stringify({ ...body, turnstileToken: undefined });
    if (values.turnstileToken) body.turnstileToken = values.turnstileToken;
    const key = attempt.current?.body === fingerprint ? attempt.current.key : newIdempotencyKey();
    attempt.current = { body: fingerprint, key };

    ctx.emit('submit', { country: body.country ?? '', lang: config.lang });
    setPhase({ name: 'sending' });
    const result = await api.requestCallback(body, key);
    if (result.ok) {
      attempt.current = null;
      ctx.emit('success', { requestId: result.data.requestId, estimateSeconds: result.data.estimateSeconds });
      setPhase({
        name: 'accepted',
        requestId: result.data.requestId,
        readback: formatInternational(parsed),
        estimateSeconds: Math.max(0, Math.round(result.data.estimateSeconds)),
        acceptedAt: Date.now(),
      });
      return;
    }
    if (!outcomeUnknown(result.code)) attempt.current = null;
    ctx.emit('error', { code: result.code });
    const error: FlowError = { code: result.code, field: fieldOf(result.code, result.field) };
    if (result.retryAfter !== undefined) error.retryAfter = result.retryAfter;
    if (result.nextOpenAt !== undefined) error.nextOpenAt = result.nextOpenAt;
    setPhase({ name: 'form', error });
  }

  return {
    phase,
    submit,
    /** Back to the form (after "try again"); the visitor's number stays filled in. */
    reset: () => setPhase({ name: 'form', error: null }),
  };
}
