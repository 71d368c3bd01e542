// One shared, bounded view of the recent call log for every visitor waiting on a callback. However
// many widgets ask, the service gets at most one `/calls/list` request per OUTCOME_POLL_MS, and none
// at all when nobody is waiting: the window only covers calls someone asked about recently.
//
// Several relays (Redis, `shared`): each relay lowers a shared mark to the earliest call it is
// asked about, and once per OUTCOME_POLL_MS the relay that wins the poll lock fetches the window
// from that mark for everyone; the others read the rows it stored. So N relays cost the service
// one `/calls/list` per period, as one relay does. While Redis is down a relay polls for itself.
import type { CallTrackingClient } from '../../calltracking/client.ts';
import type { CallRecord } from '../../calltracking/call-fields.ts';
import type { Logger } from '../../log/index.ts';
import type { SharedState } from '../../shared-state/shared-state.ts';
import type { ErasedNumber } from '../../lib/memory-copies.ts';
import { sameNumber } from './accepted-calls.ts';

// duration: with billsec, when talk began (calldate + duration − billsec), for the lead report.
export const WATCH_FIELDS = ['calldate', 'caller', 'dst', 'disposition', 'billsec', 'duration', 'connected_with', 'uniqueid'] as const;
export type WatchedRow = CallRecord<(typeof WATCH_FIELDS)[number]>;

export interface LogSnapshot {
  rows: readonly WatchedRow[];
  /** When the rows were fetched (ms), null before the first successful fetch. */
  fetchedAt: number | null;
}

export interface CallLogWatch {
  /** The log covering calls accepted since `since`, at most pollMs old. Never throws. */
  since(since: Date): Promise<LogSnapshot>;
  /** Drops the rows of an erased number from the rows it keeps (the next poll asks the service again); answers how many. */
  forgetNumber(erased: Pick<ErasedNumber, 'e164'>): number;
}

/** Clocks differ and a row's calldate may be a little before our acceptance time. */
const SKEW_MS = 2 * 60_000;

export function createCallLogWatch(deps: {
  client: Pick<CallTrackingClient, 'callsList'>;
  pollMs: number;
  now: () => number;
  log: Logger;
  shared?: SharedState | undefined;
}): CallLogWatch {
  const shared = deps.shared;
  const sharedPoll = shared?.poll<WatchedRow[] | null>('calllog', deps.pollMs);
  /** The shared mark lives this long: the window moves on once nobody asks about older calls. */
  const markTtlMs = Math.max(deps.pollMs * 10, 10 * 60_000);
  let snapshot: LogSnapshot = { rows: [], fetchedAt: null };
  let lastAttempt = -Infinity;
  let inFlight: Promise<void> | null = null;
  let wantedFrom = Infinity; // earliest call asked about since the last fetch

  async function refresh(): Promise<void> {
    if (shared && sharedPoll) return refreshShared(sharedPoll);
    const from = wantedFrom - SKEW_MS;
    wantedFrom = Infinity;
    lastAttempt = deps.now();
    try {
      const rows = await deps.client.callsList({
        from: new Date(from),
        // A little into the future: the service's clock may be ahead of ours.
        to: new Date(deps.now() + SKEW_MS),
        fields: WATCH_FIELDS,
      });
      snapshot = { rows, fetchedAt: deps.now() };
    } catch (err) {
      deps.log.warn('call log unavailable for call outcomes', { err });
    }
  }

  async function refreshShared(poll: NonNullable<typeof sharedPoll>): Promise<void> {
    const own = wantedFrom;
    wantedFrom = Infinity;
    lastAttempt = deps.now();
    const mark = (await shared!.keepEarliest('calllog', own, markTtlMs)) ?? own;
    const got = await poll.get(async () => {
      try {
        return await deps.client.callsList({ from: new Date(Math.min(mark, own) - SKEW_MS), to: new Date(deps.now() + SKEW_MS), fields: WATCH_FIELDS });
      } catch (err) {
        deps.log.warn('call log unavailable for call outcomes', { err });
        return null;
      }
    });
    if (got?.value) snapshot = { rows: got.value, fetchedAt: got.fetchedAt };
  }

  return {
    async since(since) {
      wantedFrom = Math.min(wantedFrom, since.getTime());
      // A call older than the window fetched last is covered by the next poll, at most pollMs away.
      if (deps.now() - lastAttempt >= deps.pollMs && !inFlight) {
        inFlight = refresh().finally(() => {
          inFlight = null;
        });
      }
      if (inFlight) await inFlight;
      return snapshot;
    },
    forgetNumber({ e164 }) {
      const rows = snapshot.rows.filter((r) => !sameNumber(r.caller, e164) && !sameNumber(r.dst, e164));
      const forgotten = snapshot.rows.length - rows.length;
      if (forgotten > 0) snapshot = { ...snapshot, rows };
      return forgotten;
    },
  };
}
