// What the service's facts mean for a visitor waiting for a callback. The service publishes no call
// states (spec: "States and transitions: not shown"), so the outcome is pieced together from the two
// things it does show:
//
//   SIP status (`/sipstatus/speaking`): an agent who was not speaking when the call was accepted and
//     now is has picked up our call (agent first, CALLBACK_MANAGER_DST=1): the service is now ringing
//     the visitor. If that agent is still speaking after the ring time (CALL_RING_SECONDS, assume
//     30 s, facts), the visitor must have answered (the service would have given up ringing by then):
//     connected. With several callbacks at once, new speakers are given to the oldest waiting call
//     first; a row's `connected_with` overrides that guess when the log carries it.
//   Call log (`/calls/list`): the row of our call (its number in `dst` or `caller`, dated from the
//     acceptance on) with a final disposition settles it:
//       ANSWERED, REPEATED ("repeat call": answered), PROPER, or any billsec > 0 → completed
//       IN PROGRESS (seen) or no row yet                                      → not final
//       NO ANSWER, CLIENT NO ANSWER, BUSY, FAILED, VOICEMAIL, NO EXTENSION,
//       WRONG EXTENSION and anything else                                     → missed
//
// Steps, agent first:   accepted → agent_ringing → ringing_you → connected → completed | missed
// Visitor first (CALLBACK_MANAGER_DST=0):  accepted → ringing_you → connected → completed | missed
// `accepted` means nothing has been observed yet; `unknown` (final) that the log never told us
// within a generous time, so the widget stops asking.
import type { CallOutcome } from '../../contract/contract.ts';

export type FinalOutcome = Extract<CallOutcome, 'completed' | 'missed'>;

const TALKED = new Set(['ANSWERED', 'REPEATED', 'PROPER']);

/** The final outcome a call-log row states, or null while the call is still going on. */
export function outcomeOfRow(row: { disposition: string; billsec: number }): FinalOutcome | null {
  const disposition = row.disposition.trim().toUpperCase();
  if (row.billsec > 0 || TALKED.has(disposition)) return 'completed';
  if (disposition === '' || disposition === 'IN PROGRESS') return null;
  return 'missed';
}

export interface LiveFacts {
  /** Something about the call was observed (a status or a log answer after acceptance). */
  observed: boolean;
  /** The agent handling the call was seen speaking, and since when (ms). */
  agentSpeakingSince: number | null;
  /** CALLBACK_MANAGER_DST: 1 the agent is called first, 0 the visitor. */
  managerDst: 0 | 1;
  ringMs: number;
  now: number;
}

/** The outcome while no final row exists. */
export function liveOutcome(f: LiveFacts): CallOutcome {
  if (!f.observed) return 'accepted';
  const speaking = f.agentSpeakingSince !== null;
  if (f.managerDst === 0) return speaking ? 'connected' : 'ringing_you';
  if (!speaking) return 'agent_ringing';
  return f.now - f.agentSpeakingSince! < f.ringMs ? 'ringing_you' : 'connected';
}
