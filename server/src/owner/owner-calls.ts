// The owner's view of the call log: the latest calls and calls per day by utm source, from
// `/calls/list`. The service is asked for one project-local day at a time; days that are over are
// kept (they no longer change) and only today is asked again, at most once per refresh period,
// however many owner tabs are open. Numbers leave this file masked: the page never gets a full one.
// A utm source is whatever a visitor's link said, so a flood of leads can bring thousands: the
// answer names the OWNER_CALL_SOURCES sources with the most calls and sums the rest as "(other)",
// and a day that is over is kept as its counts and its latest calls, not its every row.
import type { CallTrackingClient } from '../calltracking/client.ts';
import type { CallRecord } from '../calltracking/call-fields.ts';
import { localDay, startOfLocalDay, startOfNextLocalDay } from '../schedule/zoned.ts';
import type { Logger } from '../log/index.ts';
import { maskForOwner } from './owner-mask.ts';
import { sameNumber, type AcceptedCalls } from '../callback/progress/accepted-calls.ts';
import type { ErasedNumber } from '../lib/memory-copies.ts';

/** Sources named in the answer at most; the others' calls are summed as "(other)". */
export const OWNER_CALL_SOURCES = 20;
const OTHER = '(other)';
const NOT_SET = '(not set)';

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
  /** Sources by total calls, most first: at most OWNER_CALL_SOURCES, then "(other)" when there were more. */
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

/** What is kept of a day: its calls per source and its latest calls. */
interface DaySummary {
  total: number;
  bySource: Map<string, number>;
  latest: OwnerRow[];
}

const newestFirst = (a: OwnerRow, b: OwnerRow) => b.calldate.getTime() - a.calldate.getTime();

function summarize(rows: OwnerRow[], latestCount: number): DaySummary {
  const bySource = new Map<string, number>();
  for (const r of rows) {
    const source = r.utm_source || NOT_SET;
    bySource.set(source, (bySource.get(source) ?? 0) + 1);
  }
  return { total: rows.length, bySource, latest: [...rows].sort(newestFirst).slice(0, latestCount) };
}

export function createOwnerCalls(options: OwnerCallsOptions) {
  const dayCount = options.days ?? 7;
  const latestCount = options.latest ?? 50;
  const refreshMs = options.refreshMs ?? 20_000;
  const tz = options.timeZone;
  const closedDays = new Map<string, DaySummary>(); // local day → what is kept of it, only days that are over
  let today: { day: string; at: number } | null = null; // when today's rows were last asked for
  let last: OwnerCalls | null = null;
  let inFlight: Promise<OwnerCalls> | null = null;
  let failedAt = -Infinity;

  async function summaryOfDay(start: Date, isToday: boolean): Promise<DaySummary> {
    const day = localDay(start, tz);
    const cached = closedDays.get(day);
    if (cached) return cached;
    const end = new Date(startOfNextLocalDay(start, tz).getTime() - 1000);
    const summary = summarize(await options.client.callsList({ from: start, to: end, fields: OWNER_FIELDS }), latestCount);
    if (isToday) today = { day, at: options.now().getTime() };
    else {
      closedDays.set(day, summary);
      while (closedDays.size > dayCount + 2) closedDays.delete(closedDays.keys().next().value!);
    }
    return summary;
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
    const perDay: DaySummary[] = [];
    for (const [i, s] of starts.entries()) perDay.push(await summaryOfDay(s, i === starts.length - 1));

    const totals = new Map<string, number>();
    for (const d of perDay) for (const [source, n] of d.bySource) totals.set(source, (totals.get(source) ?? 0) + n);
    const ranked = [...totals.entries()].sort((a, b) => b[1] - a[1] || a[0].localeCompare(b[0])).map(([s]) => s);
    const named = new Set(ranked.slice(0, OWNER_CALL_SOURCES));
    const sources = ranked.length > named.size ? [...named, OTHER] : [...named];
    const days = perDay.map((d, i) => {
      const bySource: Record<string, number> = {};
      for (const [source, n] of d.bySource) {
        const key = named.has(source) ? source : OTHER;
        bySource[key] = (bySource[key] ?? 0) + n;
      }
      return { day: localDay(starts[i]!, tz), total: d.total, bySource };
    });
    const latest = perDay
      .flatMap((d) => d.latest)
      .sort(newestFirst)
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
      // A kept day holds its counts (no number) and its latest rows, which name numbers.
      for (const [day, summary] of closedDays) {
        const kept = summary.latest.filter((r) => !sameNumber(r.caller, erased.e164) && !sameNumber(r.dst, erased.e164));
        forgotten += summary.latest.length - kept.length;
        closedDays.set(day, { ...summary, latest: kept });
      }
      last = null;
      today = null;
      return forgotten;
    },
  };
}
