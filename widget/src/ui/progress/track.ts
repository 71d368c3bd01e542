// The real progress of an accepted call, polled from the relay at the pace it suggests, instead of
// a countdown that knows nothing. Stops at a final outcome, or after a few minutes of not knowing.
import { useEffect, useState } from 'preact/hooks';
import type { CallOutcome } from '../../../server/src/contract';
import type { RelayApi } from '../api';

export const finalOutcomes: ReadonlySet<CallOutcome> = new Set(['completed', 'missed']);
const giveUpAfterMs = 4 * 60_000;
const graceMs = 15_000;

export interface CallProgressState {
  outcome: CallOutcome;
  /** Polling has ended (final outcome, or we stopped knowing). */
  final: boolean;
  /** The estimate has passed and the visitor's phone has not rung yet. */
  slow: boolean;
}

export function useCallProgress(api: RelayApi, call: { requestId: string; estimateSeconds: number } | null): CallProgressState {
  const [state, setState] = useState<CallProgressState>({ outcome: 'accepted', final: false, slow: false });

  useEffect(() => {
    setState({ outcome: 'accepted', final: false, slow: false });
    if (!call) return;
    let stopped = false;
    let timer: ReturnType<typeof setTimeout> | undefined;
    const started = Date.now();
    const slowTimer = setTimeout(
      () => setState((s) => (s.outcome === 'accepted' || s.outcome === 'agent_ringing' ? { ...s, slow: true } : s)),
      call.estimateSeconds * 1000 + graceMs,
    );

    const poll = async (): Promise<void> => {
      const result = await api.progress(call.requestId);
      if (stopped) return;
      let wait = 3000;
      if (result.ok) {
        const { outcome, pollAfterMs } = result.data;
        const final = finalOutcomes.has(outcome) || pollAfterMs === undefined;
        setState((s) => ({ outcome, final, slow: s.slow && (outcome === 'accepted' || outcome === 'agent_ringing') }));
        if (final) return;
        wait = Math.min(Math.max(pollAfterMs, 500), 15_000);
      } else if (result.code === 'not_found') {
        // The relay no longer knows this request (restarted): say so rather than poll forever.
        setState((s) => ({ ...s, outcome: 'unknown', final: true }));
        return;
      }
      if (Date.now() - started > giveUpAfterMs) {
        setState((s) => ({ ...s, outcome: finalOutcomes.has(s.outcome) ? s.outcome : 'unknown', final: true }));
        return;
      }
      timer = setTimeout(() => void poll(), wait);
    };
    timer = setTimeout(() => void poll(), 1000);
    return () => {
      stopped = true;
      clearTimeout(timer);
      clearTimeout(slowTimer);
    };
  }, [api, call?.requestId]);

  return state;
}
