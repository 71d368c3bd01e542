// The record layout of one memory limit table, fixed by the rules of its first check:
//   [log: L timestamps] [counter: windowIndex, prev<<16 | curr]… [distinct: windowStart, N members]
// Count rules with a limit of at most LOG_MAX, or marked `exact`, use an exact sliding log (the
// newest L accepted timestamps, L = the largest such limit), which also serves cooldowns
// (limit 1). Larger limits (site caps, daily client caps) use a two-window weighted counter:
// 8 bytes whatever the limit, approximate by design (it assumes the previous window's requests
// were spread evenly). Timestamps are whole seconds since the store was created, so 0 can mean
// "empty".
import type { CountRule, LimitCheck } from '../limit-store.ts';

export const LOG_MAX = 8;
/** The widest log an `exact` rule may ask for (settings keep exact limits within it). */
export const EXACT_LOG_MAX = 64;

export interface Layout {
  logWidth: number;
  /** Rules kept as counters, in field order. */
  counterRules: CountRule[];
  distinctWidth: number;
  /** Where the distinct set starts in a record. */
  distinctField: number;
  /** Longest window: a record untouched for this long is expired. */
  longestSec: number;
  width: number;
}

/** What one consume wrote, so a refund can take exactly that back. */
export type Entry =
  | { kind: 'log'; table: string; hi: number; lo: number; at: number }
  | { kind: 'counter'; table: string; hi: number; lo: number; field: number; windowIndex: number }
  | { kind: 'distinct'; table: string; hi: number; lo: number; member: number };

export const isLogRule = (rule: CountRule): boolean => rule.limit <= LOG_MAX || (rule.exact === true && rule.limit <= EXACT_LOG_MAX);

export function layoutFor(check: LimitCheck): Layout {
  const counts = check.counts ?? [];
  const logRules = counts.filter(isLogRule);
  const counterRules = counts.filter((r) => !isLogRule(r));
  const logWidth = logRules.reduce((m, r) => Math.max(m, r.limit), 0);
  const distinctWidth = check.distinct ? 1 + check.distinct.limit : 0;
  const windows = [...counts.map((r) => r.windowSec * (isLogRule(r) ? 1 : 2)), check.distinct?.windowSec ?? 0];
  const distinctField = logWidth + counterRules.length * 2;
  return { logWidth, counterRules, distinctWidth, distinctField, longestSec: Math.max(...windows), width: distinctField + distinctWidth };
}

/** What fixes a table's layout: its rules' limits and windows (checked on every use, so kept cheap). */
export function signatureOf(check: LimitCheck): string {
  let signature = '';
  if (check.counts) for (const r of check.counts) signature += `${r.limit}/${r.windowSec}${r.exact ? '!' : ''},`;
  if (check.distinct) signature += `distinct ${check.distinct.limit}/${check.distinct.windowSec}`;
  return signature;
}

/** The latest second anything in the record still counts from (for expiry). */
export function newestActivity(layout: Layout, data: Uint32Array, off: number): number {
  let newest = 0;
  for (let i = 0; i < layout.logWidth; i++) newest = Math.max(newest, data[off + i]!);
  layout.counterRules.forEach((rule, n) => {
    const index = data[off + layout.logWidth + n * 2]!;
    // The counter of window `index` counts until window index+1 ends: longestSec (2 windows) from its start.
    newest = Math.max(newest, index * rule.windowSec);
  });
  if (layout.distinctWidth > 0) newest = Math.max(newest, data[off + layout.distinctField]!);
  return newest;
}
