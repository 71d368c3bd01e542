// The report's visitor values in Redis, found and erased for a visitor's data on request
// (erase-values.ts), over the keys redis-report-store.ts writes, all in the group "report" (one hash
// tag, one Cluster slot): the leads are walked with ZSCAN over their index and read a batch at a
// time; the open groups with HSCAN over each day's hash that exists (the days a report keeps),
// Redis itself passing over the groups without the number's digits in order (MATCH). A
// change is a script on one lead or one day's keys, so a count made meanwhile is never lost and no key loses its expiry.
import type { RedisConnection } from '../storage/redis/connection.ts';
import { luaFile } from '../storage/redis/lua-file.ts';
import {
  collectMatches,
  digitsPattern,
  erasedGroup,
  matchesOf,
  matchingFields,
  yieldToRequests,
  type ValueBatch,
  type ValueMatches,
  type ValuesErased,
  type ValueTest,
} from './erase-values.ts';
import { toFact } from './redis-report-store.ts';
import { dayKeys } from './redis-open-index.ts';
import { REPORT_DIMENSIONS, REPORT_RETENTION_DAYS, type OpenCount, type ReportGroupValues } from './report-store.ts';

const BATCH = 1_000;
const DAY_MS = 86_400_000;
const groupKey = (g: ReportGroupValues) => JSON.stringify(REPORT_DIMENSIONS.map((d) => g[d]));

const SET_LEAD = luaFile(new URL('./redis-report-values/set-lead.lua', import.meta.url));
const MOVE_OPENS = luaFile(new URL('./redis-report-values/move-opens.lua', import.meta.url));
const MOVE_LEAD_GROUP = luaFile(new URL('./redis-report-values/move-lead-group.lua', import.meta.url));

/** The days whose opens may still be kept (redis-report-store.ts: REPORT_RETENTION_DAYS and two days), as YYYY-MM-DD. */
function keptDays(nowMs: number): string[] {
  const days: string[] = [];
  for (let at = nowMs - (REPORT_RETENTION_DAYS + 3) * DAY_MS; at <= nowMs + 2 * DAY_MS; at += DAY_MS) days.push(new Date(at).toISOString().slice(0, 10));
  return days;
}

export function redisReportValues(connection: RedisConnection, now: () => number) {
  const space = connection.keyspace('report');
  const leadKey = (id: string) => `${space}lead:${id}`;

  async function* walk(test: ValueTest): AsyncGenerator<ValueBatch> {
    let cursor = '0';
    do {
      const page = await connection.run('report.values.leads', (c) => c.zScan(`${space}leads`, cursor, { COUNT: BATCH }));
      cursor = String(page.cursor);
      const ids = page.members.map((m) => m.value);
      if (ids.length === 0) continue;
      const hashes = (await connection.run('report.values.read', (c) => {
        const multi = c.multi();
        for (const id of ids) multi.hGetAll(leadKey(id));
        return multi.exec();
      })) as unknown as Array<Record<string, string> | null>;
      const facts = hashes.flatMap((h, i) => (h && h.at !== undefined ? [toFact(ids[i]!, h)] : []));
      yield { leads: matchesOf(facts, test), opens: [] };
      await yieldToRequests();
    } while (cursor !== '0');

    const days = keptDays(now());
    const exists = (await connection.run('report.values.days', (c) => {
      const multi = c.multi();
      for (const day of days) multi.exists(`${space}opens:${day}`);
      return multi.exec();
    })) as unknown as number[];
    for (const [i, day] of days.entries()) {
      if (!exists[i]) continue;
      let at = '0';
      do {
        const page = await connection.run('report.values.opens', (c) => c.hScan(`${space}opens:${day}`, at, { COUNT: BATCH, MATCH: digitsPattern(test.digits) }));
        at = String(page.cursor);
        const opens = page.entries.map(({ field, value }): OpenCount => {
          const [source = '', medium = '', campaign = '', department = '', page = ''] = JSON.parse(field) as string[];
          return { day, source, medium, campaign, department, page, count: Number(value) };
        });
        yield { leads: [], opens: matchesOf(opens, test) };
        await yieldToRequests();
      } while (at !== '0');
    }
  }

  return {
    find: (test: ValueTest, limit: number): Promise<ValueMatches> => collectMatches(walk(test), limit),
    async erase(test: ValueTest): Promise<ValuesErased> {
      const erased = { leads: 0, opens: 0 };
      for await (const batch of walk(test)) {
        for (const [fact, fields] of batch.leads) {
          const values = fields.flatMap((d) => [d, erasedGroup(fact, fields)[d]]);
          erased.leads += Number(await connection.evalScript('report.values.lead', SET_LEAD, [leadKey(fact.callbackId)], values));
        }
        for (const [open, fields] of batch.opens) {
          const args = [groupKey(open), groupKey(erasedGroup(open, fields))];
          erased.opens += Number(await connection.evalScript('report.values.opens', MOVE_OPENS, dayKeys(space, open.day), args));
        }
      }
      // The groups with a lead (room for their opens, redis-report-store.ts) are named by their values too.
      let cursor = '0';
      do {
        const page = await connection.run('report.values.lead-groups', (c) => c.zScan(`${space}lead-groups`, cursor, { COUNT: BATCH, MATCH: digitsPattern(test.digits) }));
        cursor = String(page.cursor);
        for (const { value: member } of page.members) {
          const [source = '', medium = '', campaign = '', department = '', page = ''] = JSON.parse(member) as string[];
          const group = { source, medium, campaign, department, page };
          const fields = matchingFields(group, test);
          if (fields.length > 0) await connection.evalScript('report.values.lead-group', MOVE_LEAD_GROUP, [`${space}lead-groups`], [member, groupKey(erasedGroup(group, fields))]);
        }
      } while (cursor !== '0');
      return erased;
    },
  };
}
