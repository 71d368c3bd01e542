// The real progress of an accepted call, polled from the relay at the pace it suggests, instead of
// a countdown that knows nothing. Stops at a final outcome, or after a few minutes of not knowing.
// Plain code rather than a hook, so the call keeps being followed while the dialog is closed.
import type { CallOutcome } from '../../../../server/src/contract.ts';
import type { RelayApi } from '../../api.ts';

const finalOutcomes: ReadonlySet<CallOutcome> = new Set(['completed', 'missed']);
const giveUpAfterMs = 4 * 60_000;
/** Past the estimate by this much, with the visitor's phone not ringing yet: "taking longer". */
const graceMs = 15_000;

export interface CallProgressState {
  outcome: CallOutcome;
  /** Polling has ended (final outcome, or we stopped knowing). */
  final: boolean;
  /** The estimate has passed and the visitor's phone has not rung yet. */
  slow: boolean;
}

export const initialProgress: CallProgressState = { outcome: 'accepted', final: false, slow: false };

const beforeRinging = (outcome: CallOutcome) => outcome === 'accepted' || outcome === 'agent_ringing';

/** Follows one call; `onChange` gets every new state. Returns the function that stops following. */
export function trackCall(
  api: RelayApi,
  call: { requestId: string; estimateSeconds: number },
  onChange: (state: CallProgressState) => void,
): () => void {
  let state = initialProgress;
  let stopped = false;
  let timer: ReturnType<typeof setTimeout> | undefined;
  const started = Date.now();
  const slowTimer = setTimeout(() => update({ slow: true }), call.estimateSeconds * 1000 + graceMs);
  const update = (next: Partial<CallProgressState>) => {
    state = { ...state, ...next };
    state.slow &&= beforeRinging(state.outcome);
    // A final state is the last one: "slow" must not report it again later.
    if (state.final) clearTimeout(slowTimer);
    onChange(state);
  };

  const poll = async (): Promise<void> => {
    const result = await api.progress(call.requestId);
    if (stopped) return;
    let wait = 3000;
    if (result.ok) {
      const { outcome, pollAfterMs } = result.data;
      const final = finalOutcomes.has(outcome) || pollAfterMs === undefined;
      update({ outcome, final });
      if (final) return;
      wait = Math.min(Math.max(pollAfterMs, 500), 15_000);
    } else if (result.code === 'not_found') {
      // The relay no longer knows this request (it restarted): say so rather than poll forever.
      return update({ outcome: 'unknown', final: true });
    }
    if (Date.now() - started > giveUpAfterMs) return update({ outcome: finalOutcomes.has(state.outcome) ? state.outcome : 'unknown', final: true });
    timer = setTimeout(poll, wait);
  };
  timer = setTimeout(poll, 1000);
  return () => {
    stopped = true;
    clearTimeout(timer);
    clearTimeout(slowTimer);
  };
}
