// After the relay took the request: the number read back, an honest estimate, then the call's real
// steps. A call booked for later, held through an outage or to be dialled again says when (in the
// visitor's time) and can be cancelled. "Missed", "failed", "cancelled" and "taking longer than
// expected" offer another try and the office's own number.
import { h } from 'preact';
import type { CallOutcome } from '../../../../server/src/contract/contract.ts';
import type { WidgetConfig } from '../../config.ts';
import { CallUsLink } from '../CallUsLink.tsx';
import { fill, plural } from '../i18n/format.ts';
import { formatOpening } from '../i18n/opening.ts';
import type { Messages } from '../i18n/types.ts';
import type { AcceptedCall } from '../useCallbackFlow.ts';
import { cancelCall, held, startOf, type CallProgressState } from './track.ts';

const steps: readonly CallOutcome[] = ['accepted', 'agent_ringing', 'ringing_you', 'connected'];

export interface CallProgressProps {
  config: WidgetConfig;
  messages: Messages;
  call: AcceptedCall;
  progress: CallProgressState;
  onRetry(): void;
}

/** The sentence that reads the call back: "We will call +380 … tomorrow, 09:00." for a held one. */
function readback(lang: string, m: Messages, call: AcceptedCall, progress: CallProgressState): string {
  const when = held(progress.outcome) && progress.scheduledFor && formatOpening(lang, progress.scheduledFor);
  return when ? fill(m.willCallAt, { phone: call.readback, when }) : fill(m.willCall, { phone: call.readback });
}

/** The state of this call: one left from an earlier call (before the tracker's first word) is not. */
const stateOf = (call: AcceptedCall, progress: CallProgressState) => (progress.requestId === call.requestId ? progress : startOf(call));

/** The live region's sentence for the call's state. */
export function announce(lang: string, m: Messages, call: AcceptedCall, state: CallProgressState): string {
  const progress = stateOf(call, state);
  const { outcome, slow, final, problem } = progress;
  if (problem) return m.errors[problem];
  if (slow && !final) return m.slow;
  if (held(outcome)) return `${m.outcomes[outcome]}. ${readback(lang, m, call, progress)}`;
  return outcome === 'accepted' ? readback(lang, m, call, progress) : m.outcomes[outcome];
}

export function CallProgress({ config, messages: m, call, progress: state, onRetry }: CallProgressProps) {
  const progress = stateOf(call, state);
  const { outcome, slow, final, problem } = progress;
  // A held call's first step names how it is held: booked, queued, or to be dialled again.
  const lead = outcome === 'redial' ? 'redial' : call.status === 'accepted' ? null : call.status;
  const list: readonly CallOutcome[] = lead ? [lead, ...steps] : steps;
  const current = outcome === 'completed' ? list.length : Math.max(0, list.indexOf(outcome));
  const cancelled = outcome === 'cancelled';
  const ended = cancelled || outcome === 'missed' || outcome === 'failed' || outcome === 'completed' || (final && outcome === 'unknown');
  const stopped = ended && outcome !== 'completed';
  const offerRetry = stopped || slow;
  return (
    <div class="progress">
      <p class="readback" tabIndex={-1}>
        {cancelled ? m.outcomes.cancelled : readback(config.lang, m, call, progress)}
      </p>
      {!ended && call.status === 'accepted' && !held(outcome) && <p class="estimate">{plural(config.lang, m.estimate, call.estimateSeconds)}</p>}
      {outcome === 'queued' && <p class="estimate">{m.queuedNote}</p>}
      {!stopped && (
        <ol class="steps" aria-label={m.outcomeTitle}>
          {list.map((step, i) => (
            <li key={step} class={i < current ? 'done' : i === current && !ended ? 'current' : ''} aria-current={i === current && !ended ? 'step' : undefined}>
              {m.outcomes[step]}
            </li>
          ))}
        </ol>
      )}
      {ended && !cancelled && <p class={`result ${outcome}`}>{m.outcomes[outcome]}</p>}
      {slow && !ended && <p class="result slow">{m.slow}</p>}
      {problem && <p class="result error">{m.errors[problem]}</p>}
      {held(outcome) && call.cancelToken && !final && (
        <div class="actions">
          <button type="button" class="link" onClick={() => void cancelCall()}>
            {m.cancelCall}
          </button>
        </div>
      )}
      {offerRetry && (
        <div class="actions">
          <button type="button" class="primary" onClick={onRetry}>
            {m.tryAgain}
          </button>
          <CallUsLink config={config} template={m.callUs} />
        </div>
      )}
    </div>
  );
}
