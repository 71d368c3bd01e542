// The whole visitor experience, kept mounted after the first open so a call's progress keeps being
// followed while the dialog is closed. The live region outside the dialog announces every state.
import { Fragment, h } from 'preact';
import { useEffect, useLayoutEffect, useState } from 'preact/hooks';
import type { ComponentChildren } from 'preact';
import type { StatusResponse } from '../../../server/src/contract/contract.ts';
import type { ApiResult, RelayApi } from '../api.ts';
import type { UiContext } from './ui-context.ts';
import { Dialog } from './Dialog.tsx';
import { fill } from './i18n/format.ts';
import { closedSentence, errorSentence, setOpeningFormatter } from './messages.ts';
import { parsePhone } from './phone/parse.ts';
import { PhoneForm } from './PhoneForm.tsx';
import { availability, StatusNotice } from './StatusNotice.tsx';
import { useCallbackFlow, type FormValues } from './useCallbackFlow.ts';
import type { CallProgressState } from './progress/index.ts';

type ProgressModule = typeof import('./progress/index.ts');
type ScheduleModule = typeof import('./schedule.tsx');

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
  const [status0, setKnown] = useState<StatusResponse | null>(null);
  const flow = useCallbackFlow(ctx, api);
  const phase = flow.phase;
  const [progressModule, setProgressModule] = useState<ProgressModule | null>(null);
  const [progress, setProgress] = useState<CallProgressState>({ outcome: 'accepted', final: false, slow: false });
  const [schedule, setSchedule] = useState<ScheduleModule | null>(null);
  const [asked, setAsked] = useState(false);

  // Follow the call the relay took (kept running while the dialog is closed: App stays mounted);
  // before the view is painted, so its first state and its cancel button are this call's.
  useLayoutEffect(() => {
    if (phase.name === 'accepted' && progressModule) return progressModule.trackCall(api, phase, setProgress);
  }, [phase, progressModule]);

  useEffect(() => {
    let live = true;
    status?.then((result) => live && result.ok && setKnown(result.data));
    return () => {
      live = false;
    };
  }, [status]);

  // With several departments (ctx.pick, departments.tsx): the chosen one's availability, hours and windows, and the field.
  const [known, choice] = ctx.pick?.(status0, values.department, change) ?? [status0];

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
    // The accepted view is a chunk of its own: fetch it while the request is on its way.
    if (!progressModule)
      import('./progress/index.ts').then((module) => {
        ctx.adoptStyles(module.css);
        setProgressModule(() => module);
      }, ctx.report);
    await flow.submit(values);
  }

  const closed = availability(known) === 'closed';
  // The visitor may book a time (the relay offers windows). The picker is a chunk of its own, with
  // the words for "when we open": fetched when the office is closed, or when the visitor asks.
  const bookable = !!known?.windows?.length;
  const book = () =>
    import('./schedule.tsx').then((module) => {
      ctx.adoptStyles(module.css);
      setOpeningFormatter(module.formatOpening);
      setSchedule(() => module);
    }, ctx.report);
  const needsOpening = closed || (phase.name === 'form' && phase.error?.code === 'closed');
  useEffect(() => {
    if (needsOpening && !schedule) book();
  }, [needsOpening]);
  // One sentence per state for the live region (screen readers hear each change once).
  const announcement =
    phase.name === 'sending'
      ? m.sending
      : phase.name === 'accepted'
        ? // Said once the view of the call is there (its chunk is fetched with the request).
          (progressModule?.announce(config.lang, m, phase, progress) ?? '')
        : phase.error
          ? errorSentence(config.lang, m, phase.error)
          : closed
            ? closedSentence(config.lang, m, known?.nextOpenAt)
            : '';

  let body: ComponentChildren;
  if (phase.name === 'sending') {
    body = (
      <p class="sending" tabIndex={-1}>
        {m.sending}
      </p>
    );
  } else if (phase.name === 'accepted') {
    const CallProgress = progressModule?.CallProgress;
    body = !CallProgress ? (
      <p class="readback" tabIndex={-1}>
        {fill(m.willCall, { phone: phase.readback })}
      </p>
    ) : (
      <CallProgress config={config} messages={m} call={phase} progress={progress} onRetry={flow.reset} />
    );
  } else {
    body = (
      <>
        {choice}
        <StatusNotice status={known} config={config} messages={m} />
        {(!closed || (schedule && bookable)) && (
          <PhoneForm
            config={config}
            // Closed, or a time chosen: not "we will call you right away" (the notice says when,
            // the picker asks).
            messages={needsOpening || values.scheduledFor ? { ...m, intro: '' } : m}
            Consent={ctx.ConsentField}
            values={values}
            error={phase.error}
            onChange={change}
            onSubmit={() => void submit()}
            onFailure={ctx.report}
          >
            {/* Until the status is known, "Call me later" holds its place unseen: the form does not
                move under the visitor's pointer when it arrives. */}
            {(bookable || !known) &&
              (schedule && bookable && (needsOpening || asked) ? (
                <schedule.When lang={config.lang} messages={m} status={known!} closed={needsOpening} asked={asked} onChange={(scheduledFor) => change({ scheduledFor })} />
              ) : (
                <button
                  type="button"
                  class={bookable ? 'link' : 'link wait'}
                  onClick={() => {
                    setAsked(true);
                    schedule || book();
                  }}
                >
                  {m.later}
                </button>
              ))}
          </PhoneForm>
        )}
      </>
    );
  }

  const Messengers = ctx.Messengers;
  if (Messengers) {
    body = (
      <Messengers ctx={ctx} status={status} known={known} phase={phase} progress={progress}>
        {body}
      </Messengers>
    );
  }

  // The view's name changes when the closed office's form appears with the picker: focus goes to it.
  return (
    <>
      <div class="sr-only" role="status" aria-live="polite" aria-atomic="true">
        {open ? announcement : ''}
      </div>
      {/* Unseen until opened: drawn ahead of the click (see mount.tsx), and kept after a close. */}
      <Dialog
        hidden={!open}
        title={m.title}
        closeLabel={m.close}
        view={phase.name === 'form' ? 'form' + (phase.error?.code ?? '') + (!closed || !!schedule) : phase.name}
        onClose={onClose}
      >
        {body}
      </Dialog>
    </>
  );
}
