// What the service's facts (SIP status, call log) mean for a visitor waiting for a callback: the
// service publishes no call states, so the outcome is pieced together from what it does show. The
// rules and the steps they give: this folder's README ("What the service's facts mean").
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
