// A check's rules as the Lua scripts read them (record.lua), and as this process compares
// them (one rule set per table). The limiter passes the same count arrays every time (limits/plan.ts
// makes them once), so the text of a count-only check (every look, every strike) is made once per
// rule set and kept beside its array, not made again for every call of a flood.
import { BLOCKING_TABLES, type CountRule, type LimitCheck } from '../limit-store.ts';

/** Count limits up to this are exact logs of times; above it, two-window counters. */
export const LOG_MAX = 8;

const countSignatures = new WeakMap<readonly CountRule[], string>();
const countSpecs = new WeakMap<readonly CountRule[], string>();
const countOnlySpecs = new WeakMap<readonly CountRule[], string>();
const blockingCountOnlySpecs = new WeakMap<readonly CountRule[], string>();

function kept(cache: WeakMap<readonly CountRule[], string>, counts: readonly CountRule[], make: () => string): string {
  let text = cache.get(counts);
  if (text === undefined) {
    text = make();
    cache.set(counts, text);
  }
  return text;
}

/** What fixes a table's rules (as in the memory store): their limits and windows. */
export function signatureOf(check: LimitCheck): string {
  const counts = check.counts === undefined ? '' : kept(countSignatures, check.counts, () => check.counts!.map((r) => `${r.limit}/${r.windowSec},`).join(''));
  return check.distinct ? `${counts}distinct ${check.distinct.limit}/${check.distinct.windowSec}` : counts;
}

/** Longest time a record matters: a log rule its window, a counter two windows, a distinct set its window. */
export function ttlOf(check: LimitCheck): number {
  let ttl = check.distinct?.windowSec ?? 1;
  for (const r of check.counts ?? []) ttl = Math.max(ttl, r.windowSec * (r.limit > LOG_MAX ? 2 : 1));
  return ttl;
}

/** Members are kept as 8 hex digits of their keyed hash, as the memory store keeps 32 bits (0 → 1). */
export function memberOf(hex: string): string {
  const m = hex.slice(0, 8).toLowerCase().padStart(8, '0');
  return m === '00000000' ? '00000001' : m;
}

const countText = (counts: readonly CountRule[]) => kept(countSpecs, counts, () => counts.map((r) => `;c,${r.limit},${r.windowSec}`).join(''));

/**
 * "<ttl>;c,<limit>,<window>…;d,<limit>,<window>,<member>" (record.lua), and ";b" last for a
 * table that blocks a client before its body (its blocks are kept, blocks.lua).
 */
export function specOf(check: LimitCheck): string {
  const { counts, distinct: d } = check;
  const blocking = BLOCKING_TABLES.has(check.table);
  if (d === undefined && counts !== undefined) {
    return kept(blocking ? blockingCountOnlySpecs : countOnlySpecs, counts, () => `${ttlOf(check)}${countText(counts)}${blocking ? ';b' : ''}`);
  }
  const rules = counts === undefined ? '' : countText(counts);
  const distinct = d ? `;d,${d.limit},${d.windowSec},${memberOf(d.member)}` : '';
  return `${ttlOf(check)}${rules}${distinct}${blocking ? ';b' : ''}`;
}
