// The report's read of one day in Redis (ReportStore's dayTop and dayGroups): one Lua script answers
// the day's first k groups as JSON from the day's index (redis-open-index.ts: its opens per value of
// the dimension asked for, kept sorted when they are counted) and its leads, so a day of a flood
// (5,000 open groups) costs Redis a range of k and a few lookups, and never crosses the network.
// It touches the day's keys only, all in the group "report" (one hash tag, one Cluster slot): the
// day's keys and the leads index named in KEYS, and the index's lead hashes, in the same slot.
import type { RedisConnection } from '../storage/redis/connection.ts';
import { luaFile } from '../storage/redis/lua-file.ts';
import { dayKeys } from './redis-open-index.ts';
import { REPORT_DIMENSIONS, type DayQuery, type DayTop } from './report-store.ts';
import type { KeyTally, Tally } from './tally.ts';

const DAY = luaFile(new URL('./redis-report-day/day.lua', import.meta.url));

/** cjson writes an empty table as {}: every list in the answer may come back as an object. */
const list = <T>(value: unknown): T[] => (Array.isArray(value) ? (value as T[]) : []);

function tallyOf(raw: Tally): Tally {
  const { opened, requested, placed, answered, talked, missed, failed, noConsent } = raw;
  return { opened, requested, placed, answered, talked, missed, failed, noConsent: noConsent ?? 0, answers: list<[number, number]>(raw.answers) };
}

const keyTallyOf = (raw: KeyTally): KeyTally => ({ key: String(raw.key), ...tallyOf(raw) });

export function redisReportDay(connection: RedisConnection, space: string) {
  const run = async (q: DayQuery, k: number, keys: readonly string[]) => {
    const args = [space, REPORT_DIMENSIONS.indexOf(q.by) + 1, q.by, q.fromMs, q.toMs, q.talkSeconds, k, ...keys];
    const text = await connection.evalScript('report.day', DAY, [...dayKeys(space, q.day), `${space}leads`], args);
    return JSON.parse(String(text)) as { top: unknown; total?: Tally; more?: boolean };
  };
  return {
    async dayTop(q: DayQuery, k: number): Promise<DayTop> {
      const r = await run(q, k, []);
      return { top: list<KeyTally>(r.top).map(keyTallyOf), total: tallyOf(r.total!), more: r.more === true };
    },
    async dayGroups(q: DayQuery, keys: readonly string[]): Promise<KeyTally[]> {
      if (keys.length === 0) return [];
      return list<KeyTally>((await run(q, 0, [...new Set(keys)])).top).map(keyTallyOf);
    },
  };
}
