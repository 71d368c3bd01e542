// ReportStore in Redis, shared by every relay. Keys, under the connection's keyspace for the group
// "report" (one hash tag):
//   <space>lead:<callbackId>   hash: the lead's fact (no number); expires REPORT_RETENTION_DAYS after it came
//   <space>leads               sorted set callbackId → when it was requested (trimmed to the same age)
//   <space>opens:<day>         hash JSON [source, medium, campaign, department, page] → opens that day
//   <space>opens:<day>:…       the day's index of those opens, per dimension (redis-open-index.ts)
//   <space>lead-groups         sorted set of the same JSON → its newest lead, ms (trimmed to LEAD_GROUP_DAYS)
// The report reads a day at a time, grouped in Redis by one script (redis-report-day.ts).
import type { RedisConnection } from '../storage/redis/connection.ts';
import { luaFile } from '../storage/redis/lua-file.ts';
import { markOf } from '../tracking-consent/snapshot.ts';
import { redisReportValues } from './redis-report-values.ts';
import { redisReportDay } from './redis-report-day.ts';
import { dayKeys } from './redis-open-index.ts';
import {
  LEAD_GROUP_DAYS,
  MAX_OPEN_GROUPS_PER_DAY,
  OTHER_GROUP,
  REPORT_DIMENSIONS,
  REPORT_RETENTION_DAYS,
  type LeadEnd,
  type LeadFact,
  type LeadSource,
  type OpenCount,
  type ReportGroupValues,
  type ReportStore,
} from './report-store.ts';

const RETENTION_MS = REPORT_RETENTION_DAYS * 86_400_000;
const LEAD_GROUP_MS = LEAD_GROUP_DAYS * 86_400_000;

const COUNT_OPEN = luaFile(new URL('./redis-report-store/count-open.lua', import.meta.url));
const groupKey = (g: ReportGroupValues) => JSON.stringify(REPORT_DIMENSIONS.map((d) => g[d]));
const OTHER_FIELD = groupKey(OTHER_GROUP);
const optionalNumber = (v: string | undefined) => (v === undefined || v === '' ? null : Number(v));

export function toFact(id: string, h: Record<string, string>): LeadFact {
  return {
    callbackId: id,
    at: Number(h.at),
    requestedAs: h.requestedAs as LeadSource,
    consent: markOf(h.consent),
    source: h.source ?? '',
    medium: h.medium ?? '',
    campaign: h.campaign ?? '',
    department: h.department ?? '',
    page: h.page ?? '',
    placed: h.placed === '1',
    outcome: (h.outcome || null) as LeadEnd | null,
    answerSeconds: optionalNumber(h.answerSeconds),
    talkSeconds: optionalNumber(h.talkSeconds),
  };
}

export function createRedisReportStore(options: { connection: RedisConnection; now?: () => number }): ReportStore {
  const { connection } = options;
  const now = options.now ?? Date.now;
  const space = connection.keyspace('report');
  const leadKey = (id: string) => `${space}lead:${id}`;
  const values = redisReportValues(connection, now);
  const readFacts = async (ids: string[]) => {
    if (ids.length === 0) return [];
    const hashes = await connection.run('report.leads.read', (c) => {
      const multi = c.multi();
      for (const id of ids) multi.hGetAll(leadKey(id));
      return multi.exec();
    });
    return (hashes as unknown as Record<string, string>[]).flatMap((h, i) => (h && h.at !== undefined ? [toFact(ids[i]!, h)] : []));
  };
  const oneDay = redisReportDay(connection, space);
  return {
    async addLead(f) {
      await connection.run('report.add', async (c) => {
        // The first write of `at` decides: a lead told twice (at least once) is one lead.
        if (!(await c.hSetNX(leadKey(f.callbackId), 'at', String(f.at)))) return;
        const { callbackId: _id, at: _at, ...values } = f;
        await c.hSet(leadKey(f.callbackId), { ...values, consent: f.consent ?? '' });
        await c.pExpire(leadKey(f.callbackId), RETENTION_MS);
        await c.zAdd(`${space}leads`, { score: f.at, value: f.callbackId });
        // The index expires with its newest lead: every key the relay writes to Redis expires.
        await c.pExpire(`${space}leads`, RETENTION_MS);
        await c.zRemRangeByScore(`${space}leads`, '-inf', now() - RETENTION_MS);
        // Its group's newest lead, for countOpen; the set keeps LEAD_GROUP_DAYS of them.
        await c.zAdd(`${space}lead-groups`, { score: f.at, value: groupKey(f) }, { comparison: 'GT' });
        await c.pExpire(`${space}lead-groups`, LEAD_GROUP_MS);
        await c.zRemRangeByScore(`${space}lead-groups`, '-inf', now() - LEAD_GROUP_MS);
      });
    },
    async markPlaced(callbackId) {
      await connection.run('report.placed', async (c) => {
        if (await c.exists(leadKey(callbackId))) await c.hSet(leadKey(callbackId), 'placed', '1');
      });
    },
    async finish(callbackId, outcome, call) {
      await connection.run('report.finish', async (c) => {
        if (!(await c.exists(leadKey(callbackId)))) return;
        if (!(await c.hSetNX(leadKey(callbackId), 'outcome', outcome))) return;
        if (call) await c.hSet(leadKey(callbackId), { answerSeconds: String(call.answerSeconds), talkSeconds: String(call.talkSeconds) });
      });
    },
    async leads(fromMs, toMs) {
      return readFacts(await connection.run('report.leads', (c) => c.zRangeByScore(`${space}leads`, fromMs, `(${toMs}`)));
    },
    async newestLeads(fromMs, toMs, limit) {
      const ids = await connection.run('report.newest', (c) => c.zRange(`${space}leads`, `(${toMs}`, fromMs, { BY: 'SCORE', REV: true, LIMIT: { offset: 0, count: limit } }));
      return readFacts(ids);
    },
    async countOpen(day, group, newGroup) {
      const keys = [...dayKeys(space, day), `${space}lead-groups`];
      const args = [groupKey(group), OTHER_FIELD, now() - LEAD_GROUP_MS, newGroup, MAX_OPEN_GROUPS_PER_DAY, RETENTION_MS + 2 * 86_400_000];
      return (await connection.evalScript('report.open', COUNT_OPEN, keys, args)) === 1;
    },
    async opens(fromDay, toDay) {
      const days: string[] = [];
      for (let d = new Date(`${fromDay}T00:00:00Z`); d.toISOString().slice(0, 10) <= toDay; d = new Date(d.getTime() + 86_400_000)) days.push(d.toISOString().slice(0, 10));
      const hashes = await connection.run('report.opens', (c) => {
        const multi = c.multi();
        for (const day of days) multi.hGetAll(`${space}opens:${day}`);
        return multi.exec();
      });
      return (hashes as unknown as Record<string, string>[]).flatMap((h, i): OpenCount[] =>
        Object.entries(h ?? {}).map(([field, count]) => {
          const [source = '', medium = '', campaign = '', department = '', page = ''] = JSON.parse(field) as string[];
          return { day: days[i]!, source, medium, campaign, department, page, count: Number(count) };
        }),
      );
    },
    findValues: (test, limit) => values.find(test, limit),
    eraseValues: (test) => values.erase(test),
    dayTop: oneDay.dayTop,
    dayGroups: oneDay.dayGroups,
  };
}
