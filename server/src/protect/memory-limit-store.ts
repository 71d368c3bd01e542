// LimitStore in process memory, bounded (see fingerprint-table.ts). Each table's record layout is
// fixed by the rules of its first check:
//   [log: L timestamps] [counter: windowIndex, prev<<16 | curr]… [distinct: windowStart, N members]
// Count rules with a limit of at most LOG_MAX use an exact sliding log (the newest L accepted
// timestamps, L = the largest such limit), which also serves cooldowns (limit 1). Larger limits
// (site caps, daily client caps) use a two-window weighted counter: 8 bytes whatever the limit,
// approximate by design (it assumes the previous window's requests were spread evenly).
// Timestamps are whole seconds since the store was created, so 0 can mean "empty".
import { FingerprintTable, fingerprint } from './fingerprint-table.ts';
import type { CountRule, DistinctRule, LimitCheck, LimitDecision, LimitStore, Receipt, Refusal } from './limit-store.ts';

const LOG_MAX = 8;
const COUNT_MAX = 0xffff;

interface Layout {
  logWidth: number;
  /** Rules kept as counters, in field order. */
  counterRules: CountRule[];
  distinctWidth: number;
  /** Longest window: a record untouched for this long is expired. */
  longestSec: number;
  width: number;
}

interface Table {
  layout: Layout;
  rows: FingerprintTable;
  signature: string;
  /** The count rules last seen to match `signature`: the same array again needs no new check. */
  checkedCounts: readonly CountRule[] | undefined;
}

type Entry =
  | { kind: 'log'; table: string; hi: number; lo: number; at: number }
  | { kind: 'counter'; table: string; hi: number; lo: number; field: number; windowIndex: number }
  | { kind: 'distinct'; table: string; hi: number; lo: number; member: number };

export interface MemoryLimitStoreOptions {
  /** Most keys any one table holds (LIMITER_MAX_KEYS). */
  maxKeysPerTable: number;
  /** Time origin for testing; defaults to now. */
  startMs?: number;
}

function layoutFor(check: LimitCheck): Layout {
  const counts = check.counts ?? [];
  const logRules = counts.filter((r) => r.limit <= LOG_MAX);
  const counterRules = counts.filter((r) => r.limit > LOG_MAX);
  const logWidth = logRules.reduce((m, r) => Math.max(m, r.limit), 0);
  const distinctWidth = check.distinct ? 1 + check.distinct.limit : 0;
  const windows = [...counts.map((r) => r.windowSec * (r.limit > LOG_MAX ? 2 : 1)), check.distinct?.windowSec ?? 0];
  return { logWidth, counterRules, distinctWidth, longestSec: Math.max(...windows), width: logWidth + counterRules.length * 2 + distinctWidth };
}

/** What fixes a table's layout: its rules' limits and windows (checked on every use, so kept cheap). */
function signatureOf(check: LimitCheck): string {
  let signature = '';
  if (check.counts) for (const r of check.counts) signature += `${r.limit}/${r.windowSec},`;
  if (check.distinct) signature += `distinct ${check.distinct.limit}/${check.distinct.windowSec}`;
  return signature;
}

export function createMemoryLimitStore(options: MemoryLimitStoreOptions): LimitStore {
  const start = (options.startMs ?? Date.now()) - 1000;
  const tables = new Map<string, Table>();
  const inFlight = new Map<string, { count: number; expires: number }>();
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
    const { layout } = table;
    const data = table.rows.data;
    const off = slot * layout.width;
    let counterField = 0;
    for (const rule of check.counts ?? []) {
      if (rule.limit <= LOG_MAX) {
        let count = 0;
        if (slot >= 0) for (let i = 0; i < layout.logWidth; i++) {
          const t = data[off + i]!;
          if (t !== 0 && now - t < rule.windowSec) count++;
        }
        if (count >= rule.limit) {
          // Refused: find when the oldest of the `limit` newest leaves the window.
          const inWindow: number[] = [];
          for (let i = 0; i < layout.logWidth; i++) {
            const t = data[off + i]!;
            if (t !== 0 && now - t < rule.windowSec) inWindow.push(t);
          }
          inWindow.sort((a, b) => a - b);
          const freeing = inWindow[inWindow.length - rule.limit]!;
          refusals.push({ reason: rule.reason, retryAfter: Math.max(1, freeing + rule.windowSec - now) });
        }
      } else {
        const field = layout.logWidth + counterField * 2;
        counterField++;
        const { prev, curr, fraction, index } = readCounter(slot >= 0 ? data : null, off + field, rule.windowSec, now);
        const estimate = prev * (1 - fraction) + curr;
        if (estimate > rule.limit - 1) {
          refusals.push({ reason: rule.reason, retryAfter: counterRetryAfter(prev, curr, rule, index, now) });
        }
      }
    }
    const d = check.distinct;
    if (d && slot >= 0) {
      const field = off + layout.logWidth + layout.counterRules.length * 2;
      const windowStart = data[field]!;
      if (windowStart !== 0 && now - windowStart < d.windowSec) {
        const member = memberOf(d);
        let count = 0;
        let present = false;
        for (let i = 1; i <= d.limit; i++) {
          const m = data[field + i]!;
          if (m !== 0) count++;
          if (m === member) present = true;
        }
        if (!present && count >= d.limit) refusals.push({ reason: d.reason, retryAfter: Math.max(1, windowStart + d.windowSec - now) });
      }
    }
  }

  function apply(table: Table, slot: number, check: LimitCheck, now: number, hi: number, lo: number, entries: Entry[]): void {
    const { layout } = table;
    const data = table.rows.data;
    const off = slot * layout.width;
    if (layout.logWidth > 0) {
      // Replace the oldest timestamp (or an empty place): the log keeps the newest L.
      let oldest = 0;
      for (let i = 1; i < layout.logWidth; i++) if (data[off + i]! < data[off + oldest]!) oldest = i;
      data[off + oldest] = now;
      entries.push({ kind: 'log', table: check.table, hi, lo, at: now });
    }
    layout.counterRules.forEach((rule, n) => {
      const field = off + layout.logWidth + n * 2;
      const index = Math.floor(now / rule.windowSec);
      const { prev, curr } = readCounter(data, field, rule.windowSec, now);
      data[field] = index;
      data[field + 1] = (Math.min(prev, COUNT_MAX) << 16) | Math.min(curr + 1, COUNT_MAX);
      entries.push({ kind: 'counter', table: check.table, hi, lo, field: layout.logWidth + n * 2, windowIndex: index });
    });
    const d = check.distinct;
    if (d) {
      const field = off + layout.logWidth + layout.counterRules.length * 2;
      if (data[field] === 0 || now - data[field]! >= d.windowSec) {
        data.fill(0, field, field + 1 + d.limit);
        data[field] = now;
      }
      const member = memberOf(d);
      let free = -1;
      for (let i = 1; i <= d.limit; i++) {
        if (data[field + i] === member) return;
        if (free < 0 && data[field + i] === 0) free = i;
      }
      if (free > 0) {
        data[field + free] = member;
        entries.push({ kind: 'distinct', table: check.table, hi, lo, member });
      }
    }
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
        const data = table.rows.data;
        const off = slot * table.layout.width;
        if (entry.kind === 'log') {
          for (let i = 0; i < table.layout.logWidth; i++) {
            if (data[off + i] === entry.at) {
              data[off + i] = 0;
              break;
            }
          }
        } else if (entry.kind === 'counter') {
          const f = off + entry.field;
          const packed = data[f + 1]!;
          if (data[f] === entry.windowIndex) data[f + 1] = (packed & 0xffff0000) | Math.max(0, (packed & 0xffff) - 1);
          else if (data[f] === entry.windowIndex + 1) data[f + 1] = (Math.max(0, (packed >>> 16) - 1) << 16) | (packed & 0xffff);
        } else {
          const f = off + table.layout.logWidth + table.layout.counterRules.length * 2;
          for (let i = 1; i < table.layout.distinctWidth; i++) if (data[f + i] === entry.member) data[f + i] = 0;
        }
      }
    },

    async acquire(key, max, ttlMs, nowMs) {
      const held = inFlight.get(key);
      if (held && held.expires > nowMs && held.count >= max) return false;
      const count = held && held.expires > nowMs ? held.count + 1 : 1;
      inFlight.set(key, { count, expires: nowMs + ttlMs });
      return true;
    },

    async release(key) {
      const held = inFlight.get(key);
      if (!held) return;
      if (held.count <= 1) inFlight.delete(key);
      else held.count--;
    },

    sizes() {
      const out: Record<string, number> = { in_flight: inFlight.size };
      for (const [name, t] of tables) out[name] = t.rows.size;
      return out;
    },
  };
}

/** Members are stored as 32 bits of their keyed hash; 0 means an empty place. */
const memberOf = (d: DistinctRule) => (parseInt(d.member.slice(0, 8), 16) >>> 0) || 1;

function readCounter(data: Uint32Array | null, field: number, windowSec: number, now: number) {
  const index = Math.floor(now / windowSec);
  const fraction = (now - index * windowSec) / windowSec;
  if (!data) return { prev: 0, curr: 0, fraction, index };
  const stored = data[field]!;
  const packed = data[field + 1]!;
  const sPrev = packed >>> 16;
  const sCurr = packed & 0xffff;
  if (stored === index) return { prev: sPrev, curr: sCurr, fraction, index };
  if (stored === index - 1) return { prev: sCurr, curr: 0, fraction, index };
  return { prev: 0, curr: 0, fraction, index };
}

/** When the weighted estimate will have dropped enough for one more request. */
function counterRetryAfter(prev: number, curr: number, rule: CountRule, index: number, now: number): number {
  const w = rule.windowSec;
  const room = rule.limit - 1;
  let at: number;
  if (curr > room) {
    // Wait for the next window, then for this window's count (now "previous") to decay.
    at = (index + 1) * w + Math.ceil(w * (1 - room / curr));
  } else {
    at = index * w + Math.ceil(w * (1 - (room - curr) / prev));
  }
  return Math.max(1, at - now);
}

function newestActivity(layout: Layout, data: Uint32Array, off: number): number {
  let newest = 0;
  for (let i = 0; i < layout.logWidth; i++) newest = Math.max(newest, data[off + i]!);
  layout.counterRules.forEach((rule, n) => {
    const index = data[off + layout.logWidth + n * 2]!;
    // The counter of window `index` counts until window index+1 ends: longestSec (2 windows) from its start.
    newest = Math.max(newest, index * rule.windowSec);
  });
  if (layout.distinctWidth > 0) newest = Math.max(newest, data[off + layout.logWidth + layout.counterRules.length * 2]!);
  return newest;
}
