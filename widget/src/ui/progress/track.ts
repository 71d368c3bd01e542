// The real progress of a call, polled from the relay at the pace it suggests, instead of a countdown
// that knows nothing. A call booked for later (scheduled), held through an outage (queued) or to be
// dialled again (redial) is followed at the relay's slower pace and can be cancelled. Stops at a
// final outcome, or after a few minutes of not knowing while the call should be under way. Plain
// code rather than a hook, so the call keeps being followed while the dialog is closed.
import type { CallbackProgress, CallOutcome } from '../../../../server/src/contract/contract.ts';
import type { ApiResult, FailureCode, RelayApi } from '../../api.ts';
import type { AcceptedCall } from '../useCallbackFlow.ts';

const finalOutcomes: ReadonlySet<CallOutcome> = new Set(['completed', 'missed', 'failed', 'cancelled']);
const giveUpAfterMs = 4 * 60_000;
/** Past the estimate by this much, with the visitor's phone not ringing yet: "taking longer". */
const graceMs = 15_000;

export interface CallProgressState {
  /** The call this state is about (a state left from an earlier call is not this one's). */
  requestId?: string | undefined;
  outcome: CallOutcome;
  /** Polling has ended (final outcome, or we stopped knowing). */
  final: boolean;
  /** The estimate has passed and the visitor's phone has not rung yet. */
  slow: boolean;
  /** For a held call (scheduled, redial): when the relay will place it. */
  scheduledFor?: string | undefined;
  /** Why the last cancel did not work (not_cancellable, a network failure, …). */
  problem?: FailureCode | undefined;
}

/** Asks the relay how the call goes, or (with the token) cancels a held one (DELETE). */
function progressOf(api: RelayApi, requestId: string, cancelToken?: string): Promise<ApiResult<CallbackProgress>> {
  return api.call<CallbackProgress>(
    '/api/callback/' + encodeURIComponent(requestId),
    (b) => b.outcome,
    // The header's name is CANCEL_TOKEN_HEADER of the contract.
    cancelToken ? { method: 'DELETE', headers: { 'Cancel-Token': cancelToken } } : undefined,
  );
}

/** Held by the relay, to be placed later: followed slowly, never "lost", and cancellable. */
export const held = (outcome: CallOutcome) => outcome === 'scheduled' || outcome === 'queued' || outcome === 'redial';
const beforeRinging = (outcome: CallOutcome) => outcome === 'accepted' || outcome === 'agent_ringing';

/** A call's state as the relay took it, before any news. */
export const startOf = (call: Pick<AcceptedCall, 'requestId'> & Partial<AcceptedCall>): CallProgressState => ({
  requestId: call.requestId,
  outcome: call.status ?? 'accepted',
  final: false,
  slow: false,
  scheduledFor: call.scheduledFor,
});

/** Cancels the call being followed (with its cancel token); set while one is. */
let cancelFollowed: (() => Promise<void>) | null = null;
export const cancelCall = (): Promise<void> | undefined => cancelFollowed?.();

/**
 * Follows one call; `onChange` gets every state, the first one at once. Returns the function that
 * stops following.
 */
export function trackCall(
  api: RelayApi,
  call: Pick<AcceptedCall, 'requestId' | 'estimateSeconds'> & Partial<AcceptedCall>,
  onChange: (state: CallProgressState) => void,
): () => void {
  let state = startOf(call);
  let stopped = false;
  let timer: ReturnType<typeof setTimeout> | undefined;
  let slowTimer: ReturnType<typeof setTimeout> | undefined;
  let started = Date.now();
  // A call placed now has the relay's estimate; one placed after being held gets half a minute.
  const armSlow = () => {
    clearTimeout(slowTimer);
    slowTimer = setTimeout(() => update({ slow: true }), (call.estimateSeconds || 30) * 1000 + graceMs);
  };
  const update = (next: Partial<CallProgressState>) => {
    const wasHeld = held(state.outcome);
    state = { ...state, ...next };
    if (wasHeld && !held(state.outcome)) {
      started = Date.now();
      armSlow();
    }
    state.slow &&= beforeRinging(state.outcome);
    // A final state is the last one: "slow" must not report it again later.
    if (state.final) {
      stopped = true;
      clearTimeout(slowTimer);
      clearTimeout(timer);
    }
    onChange(state);
  };

  const poll = async (): Promise<void> => {
    const result = await progressOf(api, call.requestId);
    if (stopped) return;
    let wait = 3000;
    if (result.ok) {
      const { outcome, pollAfterMs, scheduledFor } = result.data;
      const final = finalOutcomes.has(outcome) || pollAfterMs === undefined;
      update({ outcome, final, scheduledFor: scheduledFor ?? state.scheduledFor });
      if (final) return;
      // A held call is waiting on purpose (for its time, for the service): not a lost one.
      if (held(outcome)) started = Date.now();
      wait = Math.min(Math.max(pollAfterMs, 500), held(outcome) ? 300_000 : 15_000);
    } else if (result.code === 'not_found') {
      // The relay no longer knows this request (it restarted): say so rather than poll forever.
      return update({ outcome: 'unknown', final: true });
    }
    if (Date.now() - started > giveUpAfterMs) return update({ outcome: finalOutcomes.has(state.outcome) ? state.outcome : 'unknown', final: true });
    timer = setTimeout(poll, wait);
  };

  const cancel = async () => {
    if (!call.cancelToken) return;
    const result = await progressOf(api, call.requestId, call.cancelToken);
    if (stopped) return;
    // Cancelled: final. Refused (the call is being placed right now: not_cancellable): say why and
    // keep following it.
    if (result.ok) update({ outcome: result.data.outcome, final: finalOutcomes.has(result.data.outcome), problem: undefined });
    else update({ problem: result.code });
  };

  if (!held(state.outcome)) armSlow();
  cancelFollowed = cancel;
  onChange(state);
  timer = setTimeout(poll, 1000);
  return () => {
    stopped = true;
    if (cancelFollowed === cancel) cancelFollowed = null;
    clearTimeout(timer);
    clearTimeout(slowTimer);
  };
}
