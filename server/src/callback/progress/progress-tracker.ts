// The state of each callback a visitor is watching, advanced from the shared SIP status and the
// shared call-log watch (call-outcome.ts explains what each fact means). Asking costs the service
// nothing per visitor: both sources are shared caches.
import type { CallbackProgress, CallOutcome } from '../../contract/contract.ts';
import type { AgentStatus } from '../../calltracking/agent-status.ts';
import type { Logger } from '../../log/index.ts';
import { sameNumber, type AcceptedCall, type AcceptedCalls } from './accepted-calls.ts';
import type { CallLogWatch, WatchedRow } from './call-log-watch.ts';
import { liveOutcome, outcomeOfRow } from './call-outcome.ts';
import type { ErasedNumber } from '../../lib/memory-copies.ts';
import { trimOldest } from '../../lib/trim-oldest.ts';

/** Past this age an unsettled call is reported `unknown` (final), so widgets stop asking. */
export const GIVE_UP_MS = 20 * 60_000;
/** After the agent hung up, the log gets this long to show the row before we say `unknown`. */
const ROW_GRACE_MS = 5 * 60_000;
const ROW_SKEW_MS = 2 * 60_000;
const MAX_TRACKED = 10_000;

interface Tracked {
  call: AcceptedCall;
  /** Logins speaking when the call was accepted (or first observed); null until known. */
  baseline: Set<string> | null;
  agent: string | null;
  agentSpeakingSince: number | null;
  agentGoneAt: number | null;
  rowKey: string | null;
  observed: boolean;
  outcome: CallOutcome;
  final: boolean;
}

export interface ProgressTracker {
  /** null: no such request (never accepted here, or long forgotten). */
  progress(callbackId: string): Promise<CallbackProgress | null>;
  /** Forgets what it followed of an erased number's requests; answers how many calls. */
  forgetNumber(erased: Pick<ErasedNumber, 'callbackIds'>): number;
}

export function createProgressTracker(deps: {
  accepted: AcceptedCalls;
  agents: AgentStatus;
  watch: CallLogWatch;
  managerDst: 0 | 1;
  ringSeconds: number;
  pollMs: number;
  now: () => number;
  log: Logger;
}): ProgressTracker {
  const tracked = new Map<string, Tracked>();
  /** The tracked calls not yet settled, the only ones assignAgents looks at: settled ones stay in `tracked` for their answer. */
  const unsettled = new Set<Tracked>();
  const claimedRows = new Map<string, string>(); // row key → callbackId

  function track(call: AcceptedCall): Tracked {
    let t = tracked.get(call.callbackId);
    if (!t) {
      t = { call, baseline: null, agent: null, agentSpeakingSince: null, agentGoneAt: null, rowKey: null, observed: false, outcome: 'accepted', final: false };
      tracked.set(call.callbackId, t);
      unsettled.add(t);
      trimOldest(tracked, MAX_TRACKED, (_id, dropped) => unsettled.delete(dropped));
    }
    return t;
  }

  // Who was already speaking when the call was accepted: they are on other calls, not ours.
  deps.accepted.onAdd((call) => {
    // The same callback placed again (a re-dial): a new call to follow. The old call's row stays
    // claimed, so the new call cannot take it for its own.
    const previous = tracked.get(call.callbackId);
    if (previous && previous.call !== call) {
      tracked.delete(call.callbackId);
      unsettled.delete(previous);
    }
    const t = track(call);
    deps.agents
      .get()
      .then((s) => {
        if (s.source !== 'unknown' && t.baseline === null) t.baseline = new Set(s.speaking);
      })
      .catch(() => {});
  });

  const rowKey = (r: WatchedRow) => r.uniqueid || `${r.calldate.getTime()}|${r.caller}|${r.dst}`;

  function findRow(t: Tracked, rows: readonly WatchedRow[]): WatchedRow | null {
    if (t.rowKey) return rows.find((r) => rowKey(r) === t.rowKey) ?? null;
    const after = t.call.acceptedAt.getTime() - ROW_SKEW_MS;
    const candidates = rows
      .filter((r) => r.calldate.getTime() >= after && (sameNumber(r.dst, t.call.digits) || sameNumber(r.caller, t.call.digits)))
      .filter((r) => !claimedRows.has(rowKey(r)))
      .sort((a, b) => Math.abs(a.calldate.getTime() - t.call.acceptedAt.getTime()) - Math.abs(b.calldate.getTime() - t.call.acceptedAt.getTime()));
    const row = candidates[0] ?? null;
    if (row) {
      t.rowKey = rowKey(row);
      claimedRows.set(t.rowKey, t.call.callbackId);
      // Calls forgotten before they settled leave their claim behind; keep the map bounded anyway.
      trimOldest(claimedRows, MAX_TRACKED);
    }
    return row;
  }

  /** New speakers go to the waiting calls without an agent, oldest call first. */
  function assignAgents(speaking: readonly string[]): void {
    const taken = new Set([...unsettled].filter((t) => t.agent && t.agentGoneAt === null).map((t) => t.agent!));
    const waiting = [...unsettled].filter((t) => !t.agent && t.baseline).sort((a, b) => a.call.acceptedAt.getTime() - b.call.acceptedAt.getTime());
    for (const t of waiting) {
      const login = speaking.find((l) => !taken.has(l) && !t.baseline!.has(l));
      if (!login) continue;
      t.agent = login;
      taken.add(login);
    }
  }

  function settle(t: Tracked, outcome: CallOutcome): void {
    t.outcome = outcome;
    t.final = true;
    unsettled.delete(t);
    if (t.rowKey) claimedRows.delete(t.rowKey);
  }

  function reply(t: Tracked): CallbackProgress {
    return t.final ? { requestId: t.call.callbackId, outcome: t.outcome } : { requestId: t.call.callbackId, outcome: t.outcome, pollAfterMs: deps.pollMs };
  }

  return {
    async progress(callbackId) {
      const call = deps.accepted.get(callbackId);
      if (!call) return null;
      const t = track(call);
      if (t.final) return reply(t);

      const [status, log] = await Promise.all([deps.agents.get(), deps.watch.since(call.acceptedAt)]);
      const now = deps.now();
      const logFresh = log.fetchedAt !== null && log.fetchedAt >= call.acceptedAt.getTime();
      if (status.source !== 'unknown' || logFresh) t.observed = true;

      const row = logFresh ? findRow(t, log.rows) : null;
      const final = row ? outcomeOfRow(row) : null;
      if (final) {
        settle(t, final);
        return reply(t);
      }

      if (status.source !== 'unknown') {
        t.baseline ??= new Set(status.speaking);
        if (row?.connected_with && status.online.includes(row.connected_with)) t.agent = row.connected_with;
        assignAgents(status.speaking);
        if (t.agent) {
          if (status.speaking.includes(t.agent)) {
            t.agentSpeakingSince ??= now;
            t.agentGoneAt = null;
          } else if (t.agentSpeakingSince !== null) {
            t.agentGoneAt ??= now; // hung up: the log will say how it went
          }
        }
      }

      if (now - call.acceptedAt.getTime() > GIVE_UP_MS || (t.agentGoneAt !== null && now - t.agentGoneAt > ROW_GRACE_MS)) {
        deps.log.info('call outcome not found in the call log; reporting unknown', { callbackId });
        settle(t, 'unknown');
        return reply(t);
      }
      if (t.agentGoneAt === null) {
        t.outcome = liveOutcome({ observed: t.observed, agentSpeakingSince: t.agentSpeakingSince, managerDst: deps.managerDst, ringMs: deps.ringSeconds * 1000, now });
      }
      return reply(t);
    },
    forgetNumber({ callbackIds }) {
      let forgotten = 0;
      for (const id of callbackIds) {
        const t = tracked.get(id);
        if (!t) continue;
        tracked.delete(id);
        unsettled.delete(t);
        forgotten++;
      }
      // A claimed row names the call it went to; the row itself is the call log's (call-log-watch.ts).
      for (const [row, id] of claimedRows) if (callbackIds.has(id)) claimedRows.delete(row);
      return forgotten;
    },
  };
}
