// The distinct-members rule in a memory limit record (layout in layout.ts): a window
// anchored at its first member, then up to N members stored as 32 bits of their keyed hash.
import type { DistinctRule, Refusal } from '../limit-store.ts';
import type { Entry, Layout } from './layout.ts';

/** Members are stored as 32 bits of their keyed hash; 0 means an empty place. */
const memberOf = (d: DistinctRule) => parseInt(d.member.slice(0, 8), 16) >>> 0 || 1;

export function evaluateDistinct(layout: Layout, data: Uint32Array, off: number, d: DistinctRule, now: number, refusals: Refusal[]): void {
  const field = off + layout.distinctField;
  const windowStart = data[field]!;
  if (windowStart === 0 || now - windowStart >= d.windowSec) return;
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

export function applyDistinct(layout: Layout, data: Uint32Array, off: number, d: DistinctRule, table: string, hi: number, lo: number, now: number, entries: Entry[]): void {
  const field = off + layout.distinctField;
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
    entries.push({ kind: 'distinct', table, hi, lo, member });
  }
}

export function refundDistinct(layout: Layout, data: Uint32Array, off: number, member: number): void {
  const f = off + layout.distinctField;
  for (let i = 1; i < layout.distinctWidth; i++) if (data[f + i] === member) data[f + i] = 0;
}
