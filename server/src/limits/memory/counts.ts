// Count rules in a memory limit record (layout in layout.ts): the exact sliding log and the
// two-window weighted counter — how each is evaluated, recorded and refunded.
import type { CountRule, Refusal } from '../limit-store.ts';
import { isLogRule, type Entry, type Layout } from './layout.ts';

const COUNT_MAX = 0xffff;

/** Refusals `counts` meet in the record at `off` (`data` null: a key never counted). */
export function evaluateCounts(layout: Layout, data: Uint32Array | null, off: number, counts: readonly CountRule[], now: number, refusals: Refusal[]): void {
  let counterField = 0;
  for (const rule of counts) {
    if (isLogRule(rule)) {
      if (!data) continue;
      let count = 0;
      for (let i = 0; i < layout.logWidth; i++) {
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
      const { prev, curr, fraction, index } = readCounter(data, off + field, rule.windowSec, now);
      const estimate = prev * (1 - fraction) + curr;
      if (estimate > rule.limit - 1) {
        refusals.push({ reason: rule.reason, retryAfter: counterRetryAfter(prev, curr, rule, index, now) });
      }
    }
  }
}

/** Records one request in the record's log and counters. */
export function applyCounts(layout: Layout, data: Uint32Array, off: number, table: string, hi: number, lo: number, now: number, entries: Entry[]): void {
  if (layout.logWidth > 0) {
    // Replace the oldest timestamp (or an empty place): the log keeps the newest L.
    let oldest = 0;
    for (let i = 1; i < layout.logWidth; i++) if (data[off + i]! < data[off + oldest]!) oldest = i;
    data[off + oldest] = now;
    entries.push({ kind: 'log', table, hi, lo, at: now });
  }
  layout.counterRules.forEach((rule, n) => {
    const field = off + layout.logWidth + n * 2;
    const index = Math.floor(now / rule.windowSec);
    const { prev, curr } = readCounter(data, field, rule.windowSec, now);
    data[field] = index;
    data[field + 1] = (Math.min(prev, COUNT_MAX) << 16) | Math.min(curr + 1, COUNT_MAX);
    entries.push({ kind: 'counter', table, hi, lo, field: layout.logWidth + n * 2, windowIndex: index });
  });
}

/** Takes back one log or counter entry. */
export function refundCount(layout: Layout, data: Uint32Array, off: number, entry: Entry): void {
  if (entry.kind === 'log') {
    for (let i = 0; i < layout.logWidth; i++) {
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
  }
}

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
