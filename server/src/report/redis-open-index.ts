// A day's opens in Redis are one hash, field = the group as JSON, value = its opens. The report asks
// for a day's first groups by one dimension, and reading a flooded day's 5,000 fields for that took
// 5-12 ms of Redis's time a day. So beside the hash each day keeps an index, written in the same
// script as the hash: per dimension a sorted set value → opens, and the day's total. It is only ever
// a projection of the hash, so a day without one (counted before the index existed, or moved in by
// the hash alone) is rebuilt from the hash by the first script that needs it. The scripts' part is
// redis-open-index.lua; each script names the day's keys as KEYS 1-7, in dayKeys' order.
import { REPORT_DIMENSIONS } from './report-store.ts';

/** A day's opens hash, then its index: its total, then one sorted set per dimension (REPORT_DIMENSIONS' order). */
export const dayKeys = (space: string, day: string): string[] => [
  `${space}opens:${day}`,
  `${space}opens:${day}:total`,
  ...REPORT_DIMENSIONS.map((d) => `${space}opens:${day}:by:${d}`),
];
