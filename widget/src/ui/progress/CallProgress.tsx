// After the relay accepted: the number read back, an honest estimate, then the call's real steps.
// "Missed" and "taking longer than expected" offer another try and the office's own number.
import type { CallOutcome } from '../../../../server/src/contract.ts';
import type { WidgetConfig } from '../../config.ts';
import { CallUsLink } from '../CallUsLink.tsx';
import { fill, plural } from '../i18n/format.ts';
import type { Messages } from '../i18n/types.ts';
import type { CallProgressState } from './track.ts';

const steps: readonly CallOutcome[] = ['accepted', 'agent_ringing', 'ringing_you', 'connected'];

export interface CallProgressProps {
  config: WidgetConfig;
  messages: Messages;
  readback: string;
  estimateSeconds: number;
  progress: CallProgressState;
  onRetry(): void;
}

function stepIndex(outcome: CallOutcome): number {
  if (outcome === 'completed') return steps.length;
  const i = steps.indexOf(outcome);
  return i < 0 ? 0 : i;
}

export function CallProgress({ config, messages: m, readback, estimateSeconds, progress, onRetry }: CallProgressProps) {
  const { outcome, slow, final } = progress;
  const current = stepIndex(outcome);
  const ended = outcome === 'missed' || outcome === 'completed' || (final && outcome === 'unknown');
  const offerRetry = outcome === 'missed' || slow || (final && outcome === 'unknown');
  return (
    <div class="progress">
      <p class="readback" tabIndex={-1}>
        {fill(m.willCall, { phone: readback })}
      </p>
      {!ended && <p class="estimate">{plural(config.lang, m.estimate, estimateSeconds)}</p>}
      {outcome !== 'missed' && (
        <ol class="steps" aria-label={m.outcomeTitle}>
          {steps.map((step, i) => (
            <li key={step} class={i < current ? 'done' : i === current && !ended ? 'current' : ''} aria-current={i === current && !ended ? 'step' : undefined}>
              {m.outcomes[step]}
            </li>
          ))}
        </ol>
      )}
      {ended && <p class={`result ${outcome}`}>{m.outcomes[outcome]}</p>}
      {slow && !ended && <p class="result slow">{m.slow}</p>}
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
