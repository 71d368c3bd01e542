// What a consume in Redis leaves on its receipt, and the refund script's arguments made from it: the
// exact entry each rule added (a log time, a counter's window, a distinct member), so a refund takes
// back that entry and nothing a later request added. A blocking table's record also carries its rules,
// for the refund to judge its blocks again (blocks.lua).
import { BLOCKING_TABLES, type LimitCheck, type Receipt } from '../limit-store.ts';
import { LOG_MAX, memberOf, specOf } from './rule-specs.ts';

export type Entry =
  | { key: string; kind: 'l'; at: number }
  | { key: string; kind: 'c'; windowSec: number; windowIndex: number }
  | { key: string; kind: 'd'; member: string }
  | { key: string; kind: 'b'; spec: string };

/** The entries of an allowed consume; `reply[i + 1]` is 1 when check i's distinct member was new. */
export function entriesOf(checks: readonly LimitCheck[], keys: readonly string[], reply: readonly number[], now: number): Entry[] {
  const entries: Entry[] = [];
  checks.forEach((check, i) => {
    const key = keys[i]!;
    const counts = check.counts ?? [];
    if (counts.some((r) => r.limit <= LOG_MAX)) entries.push({ key, kind: 'l', at: now });
    const windows = new Set<number>();
    for (const r of counts) {
      if (r.limit > LOG_MAX && !windows.has(r.windowSec)) {
        windows.add(r.windowSec);
        entries.push({ key, kind: 'c', windowSec: r.windowSec, windowIndex: Math.floor(now / r.windowSec) });
      }
    }
    if (check.distinct && Number(reply[i + 1]) === 1) entries.push({ key, kind: 'd', member: memberOf(check.distinct.member) });
    if (BLOCKING_TABLES.has(check.table)) entries.push({ key, kind: 'b', spec: specOf(check) });
  });
  return entries;
}

/** The refund script's keys (each record once) and one argument per entry, "<key index>,<kind>,…". */
export function refundArgs(receipt: Receipt): { keys: string[]; args: string[] } {
  const keys: string[] = [];
  const indexOf = new Map<string, number>();
  const args = (receipt.entries as Entry[]).map((e) => {
    let ki = indexOf.get(e.key);
    if (ki === undefined) {
      keys.push(e.key);
      ki = keys.length;
      indexOf.set(e.key, ki);
    }
    if (e.kind === 'l') return `${ki},l,${e.at}`;
    if (e.kind === 'c') return `${ki},c,${e.windowSec},${e.windowIndex}`;
    if (e.kind === 'b') return `${ki},b,${receipt.at},${e.spec}`;
    return `${ki},d,${e.member}`;
  });
  return { keys, args };
}
