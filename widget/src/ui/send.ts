// The request of one submit: built from the form and the attribution, sent with its Idempotency-Key,
// its answer turned into the next phase. In the call's chunk (progress/index.ts, with the view of the
// call that follows), fetched as the visitor submits: nobody who only looks pays for it.
import type { CallbackAnswer, CallbackRequest } from '../../../server/src/contract/contract.ts';
import type { RelayApi } from '../api.ts';
import { fieldOf, outcomeUnknown } from './fields.ts';
import type { UiContext } from './ui-context.ts';
import type { FormValues, Phase } from './useCallbackFlow.ts';

/** A fresh key per submit attempt; works on plain-http pages where crypto.randomUUID is missing. */
export function newIdempotencyKey(): string {
  const bytes = crypto.getRandomValues(new Uint8Array(16));
  return Array.from(bytes, (b) => b.toString(16).padStart(2, '0')).join('');
}

/** Where a link with this href leads (an absolute http(s) URL), or null: "https://" alone leads nowhere. */
function linkTarget(href: string): string | null {
  try {
    const url = new URL(href, document.baseURI).href;
    return /^https?:/.test(url) ? url : null;
  } catch {
    return null;
  }
}

export async function send(
  ctx: UiContext,
  api: RelayApi,
  values: FormValues,
  /** The number in E.164 (as typed when it cannot be parsed), and as read back to the visitor. */
  phone: { e164: string; readback: string },
  attempt: { current: { body: string; key: string } | null },
  setPhase: (phase: Phase) => void,
): Promise<void> {
  const { config } = ctx;
  // Read now, not at page load: the tracking script may have written its cookies after we ran, and
  // the visitor may have answered the consent banner since. The reader is in the open beacon's chunk
  // (opened.ts), fetched at the first open, so already here.
  const [attribution, trackingConsent] = await import('./opened.ts').then((module) => module.attributionNow(ctx));
  const body: CallbackRequest = {
    phone: phone.e164,
    locale: config.lang,
    trackingConsent,
  };
  if (/^[A-Z]{2}$/.test(values.country)) body.country = values.country;
  if (config.consentText) {
    body.consent = values.consent;
    // The sentence and link exactly as the consent box showed them: the relay's consent record keeps
    // a hash of what the visitor agreed to, which proves nothing unless it is the text they saw. The
    // link is sent resolved, as the browser follows it ("/privacy" names a page of this site). One
    // longer than the relay accepts (2,000 characters) is left out: sent, it would have the relay
    // refuse the whole request, and the visitor would get no call at all.
    if (config.consentText.length <= 2000) body.consentText = config.consentText;
    const privacy = config.privacyUrl && linkTarget(config.privacyUrl);
    if (privacy && privacy.length <= 2000) body.privacyUrl = privacy;
  }
  if (Object.keys(attribution).length) body.attribution = attribution;
  if (values.scheduledFor) body.scheduledFor = values.scheduledFor;
  // The department shown chosen, whether or not the visitor touched the field.
  const department = values.department ?? ctx.pick?.first;
  if (department) body.department = department;
  // The relay accepts page addresses up to 2,048 characters; a longer one is cut, still a URL.
  body.pageUrl = location.href.slice(0, 2048);
  // Taken before the token is added: each attempt has a fresh token, yet a re-send is the same request.
  const fingerprint = JSON.stringify(body);
  if (values.turnstileToken) body.turnstileToken = values.turnstileToken;
  const key = attempt.current?.body === fingerprint ? attempt.current.key : newIdempotencyKey();
  attempt.current = { body: fingerprint, key };

  ctx.emit('submit', { country: body.country ?? '', lang: config.lang });
  const result = await api.call<CallbackAnswer>('/api/callback', (b) => b.requestId, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json', 'Idempotency-Key': key },
    body: JSON.stringify(body),
  });
  if (result.ok) {
    attempt.current = null;
    const answer = result.data;
    // An answer without a known status is a call placed now (a relay from before "call me later").
    const status = answer.status === 'scheduled' || answer.status === 'queued' ? answer.status : 'accepted';
    const estimateSeconds = answer.status === 'accepted' ? Math.max(0, Math.round(answer.estimateSeconds)) || 0 : 0;
    const scheduledFor = answer.status === 'scheduled' ? answer.scheduledFor : undefined;
    const cancelToken = answer.status !== 'accepted' ? answer.cancelToken : undefined;
    // The page learns what happened, never the number: `status`, and the time of a booked call.
    ctx.emit(
      'success',
      status === 'accepted'
        ? { requestId: answer.requestId, status, estimateSeconds }
        : scheduledFor
          ? { requestId: answer.requestId, status, scheduledFor }
          : { requestId: answer.requestId, status },
    );
    return setPhase({ name: 'accepted', status, requestId: answer.requestId, readback: phone.readback, estimateSeconds, scheduledFor, cancelToken });
  }
  if (!outcomeUnknown(result.code)) attempt.current = null;
  ctx.emit('error', { code: result.code });
  const { field, retryAfter, nextOpenAt } = result.error ?? {};
  setPhase({
    name: 'form',
    error: {
      code: result.code,
      field: fieldOf(result.code, typeof field === 'string' ? field : undefined),
      retryAfter: typeof retryAfter === 'number' ? retryAfter : undefined,
      nextOpenAt: typeof nextOpenAt === 'string' ? nextOpenAt : undefined,
    },
  });
}
