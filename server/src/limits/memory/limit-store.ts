// LimitStore in process memory, bounded (see fingerprint-table.ts): one table of fixed-width
// records per check table, laid out by layout.ts; count rules live in counts.ts,
// distinct sets in distinct.ts, in-flight slots in in-flight.ts.
import { FingerprintTable, fingerprint } from './fingerprint-table.ts';
import type { CountRule, LimitCheck, LimitDecision, LimitStore, Receipt, Refusal } from '../limit-store.ts';
import { layoutFor, newestActivity, signatureOf, type Entry, type Layout } from './layout.ts';
import { applyCounts, evaluateCounts, refundCount } from './counts.ts';
import { applyDistinct, evaluateDistinct, refundDistinct } from './distinct.ts';
import { createInFlight } from './in-flight.ts';

interface Table {
  layout: Layout;
  rows: FingerprintTable;
  signature: string;
  /** The count rules last seen to match `signature`: the same array again needs no new check. */
  checkedCounts: readonly CountRule[] | undefined;
}

export interface MemoryLimitStoreOptions {
  /** Most keys any one table holds (LIMITER_MAX_KEYS). */
  maxKeysPerTable: number;
  /** Time origin for testing; defaults to now. */
  startMs?: number;
}

export function createMemoryLimitStore(options: MemoryLimitStoreOptions): LimitStore {
  const start = (options.startMs ?? Date.now()) - 1000;
  const tables = new Map<string, Table>();
  const inFlight = createInFlight();
  const seconds = (nowMs: number) => Math.max(1, Math.floor((nowMs - start) / 1000));

  /** Throws unless `check` has the rules `table` was made for. */
  function assertSameRules(table: Table, check: LimitCheck): void {
    // The limiter passes the same rule arrays every time: then only a distinct rule (made per
    // request, for its member) needs comparing.
    if (check.counts !== undefined && check.counts === table.checkedCounts && !check.distinct) return;
    if (table.signature !== signatureOf(check)) throw new Error(`limit table "${check.table}" used with two different rule sets`);
  }

  function tableFor(check: LimitCheck): Table {
    let table = tables.get(check.table);
    if (table) {
      assertSameRules(table, check);
    } else {
      const layout = layoutFor(check);
      const expired = (data: Uint32Array, off: number, now: number) => newestActivity(layout, data, off) + layout.longestSec <= now;
      table = { layout, rows: new FingerprintTable(Math.max(1, layout.width), options.maxKeysPerTable, expired), signature: signatureOf(check), checkedCounts: undefined };
      tables.set(check.table, table);
    }
    table.checkedCounts = check.counts;
    return table;
  }

  function evaluate(table: Table, slot: number, check: LimitCheck, now: number, refusals: Refusal[]): void {
    const data = slot >= 0 ? table.rows.data : null;
    const off = slot * table.layout.width;
    if (check.counts) evaluateCounts(table.layout, data, off, check.counts, now, refusals);
    if (check.distinct && data) evaluateDistinct(table.layout, data, off, check.distinct, now, refusals);
  }

  function apply(table: Table, slot: number, check: LimitCheck, now: number, hi: number, lo: number, entries: Entry[]): void {
    const data = table.rows.data;
    const off = slot * table.layout.width;
    applyCounts(table.layout, data, off, check.table, hi, lo, now, entries);
    if (check.distinct) applyDistinct(table.layout, data, off, check.distinct, check.table, hi, lo, now, entries);
  }

  return {
    async consume(checks, nowMs) {
      const now = seconds(nowMs);
      const refusals: Refusal[] = [];
      const located = checks.map((check) => {
        const table = tableFor(check);
        const [hi, lo] = fingerprint(check.key);
        const slot = table.rows.find(hi, lo);
        if (slot < 0 && !table.rows.hasRoom(now)) refusals.push({ reason: 'limiter_full', retryAfter: 60 });
        evaluate(table, slot, check, now, refusals);
        return { table, hi, lo };
      });
      if (refusals.length > 0) return { ok: false, refusals } satisfies LimitDecision;
      const entries: Entry[] = [];
      checks.forEach((check, i) => {
        const { table, hi, lo } = located[i]!;
        const slot = table.rows.findOrCreate(hi, lo, now);
        if (slot >= 0) apply(table, slot, check, now, hi, lo, entries);
      });
      return { ok: true, receipt: { at: now, entries } };
    },

    async peek(check, nowMs) {
      // Never creates a table or a row: a key nobody has counted yet has met no limit.
      const table = tables.get(check.table);
      if (!table) return [];
      assertSameRules(table, check);
      const [hi, lo] = fingerprint(check.key);
      const slot = table.rows.find(hi, lo);
      if (slot < 0) return [];
      const refusals: Refusal[] = [];
      evaluate(table, slot, check, seconds(nowMs), refusals);
      return refusals;
    },

    async refund(receipt: Receipt) {
      for (const entry of receipt.entries as Entry[]) {
        const table = tables.get(entry.table);
        if (!table) continue;
        const slot = table.rows.find(entry.hi, entry.lo);
        if (slot < 0) continue;
        const off = slot * table.layout.width;
        if (entry.kind === 'distinct') refundDistinct(table.layout, table.rows.data, off, entry.member);
        else refundCount(table.layout, table.rows.data, off, entry);
      }
    },

    async acquire(key, max, ttlMs, nowMs) {
      return inFlight.acquire(key, max, ttlMs, nowMs);
    },

    async release(key) {
      inFlight.release(key);
    },

    sizes() {
      const out: Record<string, number> = { in_flight: inFlight.size };
      for (const [name, t] of tables) out[name] = t.rows.size;
      return out;
    },
  };
}
