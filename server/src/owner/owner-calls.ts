// The owner's view of the call log: the latest calls and calls per day by utm source, from
// `/calls/list`. The service is asked for one project-local day at a time; days that are over are
// kept (they no longer change) and only today is asked again, at most once per refresh period,
// however many owner tabs are open. Numbers leave this file masked: the page never gets a full one.
import type { CallTrackingClient } from '../calltracking/client.ts';
import type { CallRecord } from '../calltracking/call-fields.ts';
import { localDay, startOfLocalDay, startOfNextLocalDay } from '../schedule/zoned.ts';
import type { Logger } from '../log/index.ts';
import { maskForOwner } from './owner-mask.ts';
import { sameNumber, type AcceptedCalls } from '../outcome/accepted-calls.ts';
import type { ErasedNumber } from '../lib/memory-copies.ts';

const OWNER_FIELDS = ['calldate', 'caller', 'dst', 'disposition', 'billsec', 'duration', 'call_type', 'utm_source', 'utm_medium', 'client_id', 'uniqueid'] as const;
type OwnerRow = CallRecord<(typeof OWNER_FIELDS)[number]>;

export interface OwnerCall {
  time: string;
  disposition: string;
  /** Talk time (billsec), seconds. */
  talkSeconds: number;
  /** Whole call (duration), seconds. */
  durationSeconds: number;
  callType: string;
  utmSource: string;
  utmMedium: string;
  clientId: string;
  /** The outside party, masked. */
  number: string;
  /** The widget's call: placed by this relay (placedHere) or a callback call (call_type callback). */
  widget: boolean;
  /** The number matches a callback this relay placed (and still remembers). */
  placedHere: boolean;
}

export interface OwnerCalls {
  timeZone: string;
  fetchedAt: string;
  /** Newest first. */
  latest: OwnerCall[];
  /** Oldest day first; every day of the period present, zero-count days included. */
  days: Array<{ day: string; total: number; bySource: Record<string, number> }>;
  /** Sources by total calls, most first. */
  sources: string[];
  /** False when the service could not be asked: the data is from the last good answer (or empty). */
  live: boolean;
}

export interface OwnerCallsOptions {
  client: Pick<CallTrackingClient, 'callsList'>;
  accepted: AcceptedCalls;
  timeZone: string;
  log: Logger;
  now: () => Date;
  /** Days in the chart, today included. */
  days?: number;
  latest?: number;
  refreshMs?: number;
}

/** The outside party of a call: for outbound legs and callbacks that is whoever is not the project. */
function outsideParty(row: OwnerRow, accepted: AcceptedCalls): string {
  if (accepted.hasNumber(row.dst)) return row.dst;
  if (accepted.hasNumber(row.caller)) return row.caller;
  return row.call_type === 'out' ? row.dst : row.caller;
}

export function createOwnerCalls(options: OwnerCallsOptions) {
  const dayCount = options.days ?? 7;
  const latestCount = options.latest ?? 50;
  const refreshMs = options.refreshMs ?? 20_000;
  const tz = options.timeZone;
  const closedDays = new Map<string, OwnerRow[]>(); // local day → rows, only days that are over
  let today: { day: string; at: number } | null = null; // when today's rows were last asked for
  let last: OwnerCalls | null = null;
  let inFlight: Promise<OwnerCalls> | null = null;
  let failedAt = -Infinity;

  async function rowsOfDay(start: Date, isToday: boolean): Promise<OwnerRow[]> {
    const day = localDay(start, tz);
    const cached = closedDays.get(day);
    if (cached) return cached;
    const end = new Date(startOfNextLocalDay(start, tz).getTime() - 1000);
    const rows = await options.client.callsList({ from: start, to: end, fields: OWNER_FIELDS });
    if (isToday) today = { day, at: options.now().getTime() };
    else {
      closedDays.set(day, rows);
      while (closedDays.size > dayCount + 2) closedDays.delete(closedDays.keys().next().value!);
    }
    return rows;
  }

  const empty = (): OwnerCalls => ({ timeZone: tz, fetchedAt: options.now().toISOString(), latest: [], days: [], sources: [], live: false });

  async function build(): Promise<OwnerCalls> {
    const now = options.now();
    const starts: Date[] = [];
    let start = startOfLocalDay(now, tz);
    starts.unshift(start);
    for (let i = 1; i < dayCount; i++) {
      start = startOfLocalDay(new Date(start.getTime() - 12 * 3600_000), tz);
      starts.unshift(start);
    }
    const perDay: OwnerRow[][] = [];
    for (const [i, s] of starts.entries()) perDay.push(await rowsOfDay(s, i === starts.length - 1));

    const totals = new Map<string, number>();
    const days = perDay.map((rows, i) => {
      const bySource: Record<string, number> = {};
      for (const r of rows) {
        const source = r.utm_source || '(not set)';
        bySource[source] = (bySource[source] ?? 0) + 1;
        totals.set(source, (totals.get(source) ?? 0) + 1);
      }
      return { day: localDay(starts[i]!, tz), total: rows.length, bySource };
    });
    const latest = perDay
      .flat()
      .sort((a, b) => b.calldate.getTime() - a.calldate.getTime())
      .slice(0, latestCount)
      .map((r): OwnerCall => {
        const placedHere = options.accepted.hasNumber(r.dst) || options.accepted.hasNumber(r.caller);
        return {
          time: r.calldate.toISOString(),
          disposition: r.disposition,
          talkSeconds: r.billsec,
          durationSeconds: r.duration,
          callType: r.call_type,
          utmSource: r.utm_source,
          utmMedium: r.utm_medium,
          clientId: r.client_id,
          number: maskForOwner(outsideParty(r, options.accepted)),
          widget: placedHere || r.call_type === 'callback',
          placedHere,
        };
      });
    const sources = [...totals.entries()].sort((a, b) => b[1] - a[1] || a[0].localeCompare(b[0])).map(([s]) => s);
    return { timeZone: tz, fetchedAt: now.toISOString(), latest, days, sources, live: true };
  }

  return {
    async get(): Promise<OwnerCalls> {
      const at = options.now();
      const fresh = last && today && at.getTime() - today.at < refreshMs && today.day === localDay(at, tz);
      if (fresh) return last!;
      // After a failure, wait a refresh period before asking the service again.
      if (at.getTime() - failedAt < refreshMs) return last ? { ...last, live: false } : empty();
      inFlight ??= build()
        .then((result) => (last = result))
        .catch((err: unknown) => {
          options.log.warn('owner view: call log unavailable', { err });
          failedAt = options.now().getTime();
          return last ? { ...last, live: false } : empty();
        })
        .finally(() => {
          inFlight = null;
        });
      return inFlight;
    },
    /**
     * Drops an erased number's rows from the days kept (the service still has them: its call log is
     * not the relay's to erase) and the last answer built from them; answers how many rows.
     */
    forgetNumber(erased: Pick<ErasedNumber, 'e164'>): number {
      let forgotten = 0;
      for (const [day, rows] of closedDays) {
        const kept = rows.filter((r) => !sameNumber(r.caller, erased.e164) && !sameNumber(r.dst, erased.e164));
        forgotten += rows.length - kept.length;
        closedDays.set(day, kept);
      }
      last = null;
      today = null;
      return forgotten;
    },
  };
}
