// The honest state machine of one visitor's request: form → sending → accepted (then the call's
// real progress, see progress/track.ts). Client checks run first; the relay's answer is authoritative.
import { useRef, useState } from 'preact/hooks';
import type { RelayApi } from '../api.ts';
import type { UiContext } from './ui-context.ts';
import { fieldOf, type ErrorCodeAny, type FlowError } from './fields.ts';
import { checkPhone, formatInternational, parsePhone, toE164 } from './phone/parse.ts';

export interface FormValues {
  phone: string;
  country: string;
  consent: boolean;
  turnstileToken: string | null;
  /** "Call me later": the instant the visitor picked (ISO 8601); absent for "right away". */
  scheduledFor?: string | undefined;
  /** The department chosen (departments.tsx); absent when the relay has one. */
  department?: string | undefined;
}

/**
 * A call the relay took: placed now (`accepted`), booked for later (`scheduled`, with its time), or
 * held while the service is unreachable (`queued`). The held ones carry the token that cancels them.
 */
export interface AcceptedCall {
  name: 'accepted';
  status: 'accepted' | 'scheduled' | 'queued';
  requestId: string;
  readback: string;
  estimateSeconds: number;
  scheduledFor?: string | undefined;
  cancelToken?: string | undefined;
}

export type Phase = { name: 'form'; error: FlowError | null } | { name: 'sending' } | AcceptedCall;

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

    // The request is in the call's chunk (progress/index.ts, with send.ts); a chunk that cannot be fetched is the
    // network failing.
    setPhase({ name: 'sending' });
    const phone = { e164: toE164(parsed) ?? values.phone.replace(/[^\d+]/g, ''), readback: formatInternational(parsed) };
    await import('./progress/index.ts').then(
      (module) => module.send(ctx, api, values, phone, attempt, setPhase),
      () => setPhase({ name: 'form', error: { code: 'network_error', field: null } }),
    );
  }

  return {
    phase,
    submit,
    /** Back to the form (after "try again"); the visitor's number stays filled in. */
    reset: () => setPhase({ name: 'form', error: null }),
  };
}
