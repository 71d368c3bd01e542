// The whole visitor experience, kept mounted after the first open so a call's progress keeps being
// followed while the dialog is closed. The live region outside the dialog announces every state.
import { useEffect, useMemo, useState } from 'preact/hooks';
import type { StatusResponse } from '../../../server/src/contract';
import type { ApiResult, RelayApi } from '../api';
import type { UiContext } from './ui-context';
import { CallProgress } from './CallProgress';
import { Dialog } from './Dialog';
import { fill, plural } from './i18n/format';
import { closedSentence, errorSentence } from './messages';
import { parsePhone } from './phone/parse';
import { PhoneForm } from './PhoneForm';
import { availability, StatusNotice } from './StatusNotice';
import { useCallbackFlow, type FormValues } from './useCallbackFlow';
import { useCallProgress } from './useCallProgress';

export interface AppProps {
  ctx: UiContext;
  api: RelayApi;
  open: boolean;
  status: Promise<ApiResult<StatusResponse>> | null;
  onClose(): void;
}

export function App({ ctx, api, open, status, onClose }: AppProps) {
  const { config, messages: m } = ctx;
  const [values, setValues] = useState<FormValues>({ phone: '', country: config.country, consent: false, turnstileToken: null });
  const [captchaGeneration, setCaptchaGeneration] = useState(0);
  const [known, setKnown] = useState<StatusResponse | null>(null);
  const flow = useCallbackFlow(ctx, api);
  const phase = flow.phase;
  const call = useMemo(() => (phase.name === 'accepted' ? { requestId: phase.requestId, estimateSeconds: phase.estimateSeconds } : null), [phase]);
  const progress = useCallProgress(api, call);

  useEffect(() => {
    let live = true;
    status?.then((result) => live && result.ok && setKnown(result.data));
    return () => {
      live = false;
    };
  }, [status]);

  function change(update: Partial<FormValues>) {
    setValues((current) => {
      const next = { ...current, ...update };
      // A pasted or autofilled +48… number picks its country: the visitor should not have to.
      if (update.phone !== undefined) {
        const parsed = parsePhone(update.phone, current.country);
        if (parsed.international && parsed.country && parsed.country !== current.country) next.country = parsed.country;
      }
      return next;
    });
  }

  async function submit() {
    await flow.submit(values);
    if (config.turnstileSiteKey) setCaptchaGeneration((g) => g + 1);
  }

  const closed = availability(known) === 'closed';
  let announcement = '';
  if (phase.name === 'sending') announcement = m.sending;
  else if (phase.name === 'accepted') {
    announcement =
      progress.outcome === 'accepted' && !progress.slow
        ? `${fill(m.willCall, { phone: phase.readback })} ${plural(config.lang, m.estimate, phase.estimateSeconds)}`
        : progress.slow && !progress.final
          ? m.slow
          : m.outcomes[progress.outcome];
  } else if (phase.error) announcement = errorSentence(config.lang, m, phase.error);
  else if (closed) announcement = closedSentence(config.lang, m, known?.nextOpenAt);

  let body;
  if (phase.name === 'sending') {
    body = (
      <p class="sending">{m.sending}</p>
    );
  } else if (phase.name === 'accepted') {
    body = (
      <CallProgress
        config={config}
        messages={m}
        readback={phase.readback}
        estimateSeconds={phase.estimateSeconds}
        progress={progress}
        onRetry={flow.reset}
      />
    );
  } else {
    body = (
      <>
        <StatusNotice status={known} config={config} messages={m} />
        {!closed && (
          <PhoneForm
            config={config}
            messages={m}
            values={values}
            error={phase.error}
            captchaGeneration={captchaGeneration}
            onChange={change}
            onSubmit={() => void submit()}
            onFailure={ctx.report}
          />
        )}
      </>
    );
  }

  return (
    <>
      <div class="sr-only" role="status" aria-live="polite" aria-atomic="true">
        {open ? announcement : ''}
      </div>
      {open && (
        <Dialog title={m.title} closeLabel={m.close} onClose={onClose}>
          {body}
        </Dialog>
      )}
    </>
  );
}
