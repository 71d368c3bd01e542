// The report's reads against the memory, the SQLite and the Redis store (one server and a Cluster):
// a day grouped in the store and cut to its first k groups with its exact total, the groups asked
// for summed exactly, the newest leads of a period; and a flooded period (thousands of open groups
// a day, each its own utm source) read into a report of REPORT_GROUPS groups and "(other)", whose
// totals, days and real sources are still exact.
import { describe, expect, it } from 'vitest';
import { leadReport, NONE, OTHER, REPORT_GROUPS, type LeadReport } from '../../../server/src/report/lead-report.ts';
import { createMemoryReportStore } from '../../../server/src/report/memory-report-store.ts';
import { createRedisReportStore } from '../../../server/src/report/redis-report-store.ts';
import { readPeriod } from '../../../server/src/report/report-query.ts';
import type { DayQuery, ReportGroupValues, ReportStore } from '../../../server/src/report/report-store.ts';
import { createSqliteReportStore } from '../../../server/src/report/sqlite-report-store.ts';
import { byLeadsThenOpens, COUNT_NAMES } from '../../../server/src/report/tally.ts';
import { openDatabase } from '../../../server/src/storage/sqlite/database.ts';
import { tempDataDir } from '../../support/crash.ts';
import { redisForTests } from '../../support/redis-test-connection.ts';
import { expected, type FloodSpec, floodRedis, floodSqlite, floodThroughApi } from '../../support/report-flood.ts';
import type { ConsentMark } from '../../../server/src/tracking-consent/snapshot.ts';

const redis = redisForTests();
const redisCluster = redisForTests({ cluster: true });
interface Made {
  store: ReportStore;
  flood(spec: FloodSpec): Promise<void>;
}
const factories: [string, () => Made][] = [
  [
    'memory',
    () => {
      const store = createMemoryReportStore();
      return { store, flood: (spec) => floodThroughApi(store, spec) };
    },
  ],
  [
    'sqlite',
    () => {
      const db = openDatabase({ dataDir: tempDataDir() });
      return { store: createSqliteReportStore({ db }), flood: async (spec) => floodSqlite(db, spec) };
    },
  ],
  ...(['redis', 'redis-cluster'] as const).map((name): [string, () => Made] => [
    name,
    () => {
      const connection = (name === 'redis' ? redis : redisCluster).fresh();
      return { store: createRedisReportStore({ connection }), flood: (spec) => floodRedis(connection, spec) };
    },
  ]),
  [
    // Days counted before the store kept an index of each day's opens: the first read builds it.
    'redis, days without their index',
    () => {
      const connection = redis.fresh();
      return { store: createRedisReportStore({ connection }), flood: (spec) => floodRedis(connection, spec, { index: false }) };
    },
  ],
];

const TZ = 'Europe/Kyiv';
const DAY = '2026-11-25';
const NOON = Date.UTC(2026, 10, 25, 10);
const day = (by: DayQuery['by'] = 'source'): DayQuery => ({ day: DAY, fromMs: Date.UTC(2026, 10, 24, 22), toMs: Date.UTC(2026, 10, 25, 22), by, talkSeconds: 10 });
const group = (source: string, page = '/sofa'): ReportGroupValues => ({ source, medium: source ? 'cpc' : '', campaign: '', department: '', page });

/** A known day: opens of four sources, leads of three, one of them the owner's, one the day before. */
async function knownDay(store: ReportStore) {
  for (const [source, n] of [
    ['google', 5],
    ['newsletter', 3],
    ['bing', 1],
    ['', 2],
  ] as const)
    for (let i = 0; i < n; i++) await store.countOpen(DAY, group(source), 'add');
  await store.countOpen(DAY, group('google', '/chair'), 'add');
  const lead = async (id: string, source: string, at: number, requestedAs: 'now' | 'owner', end?: ['answered' | 'missed', number, number], consent?: ConsentMark) => {
    await store.addLead({ callbackId: id, at, requestedAs, ...group(source), ...(consent !== undefined && { consent }) });
    await store.markPlaced(id);
    if (end) await store.finish(id, end[0], end[0] === 'answered' ? { answerSeconds: end[1], talkSeconds: end[2] } : null);
  };
  // Consent marks: asked without analytics consent (denied, unknown) count as noConsent, the owner's never.
  await lead('g1', 'google', NOON, 'now', ['answered', 12.5, 40], 'granted');
  await lead('g2', 'google', NOON + 1000, 'now', ['missed', 0, 0], 'denied');
  await lead('n1', 'newsletter', NOON + 2000, 'now', ['answered', 20, 5], 'unknown');
  await lead('b1', 'bing', NOON + 3000, 'owner', undefined, 'denied');
  await lead('old', 'bing', Date.UTC(2026, 10, 24, 12), 'now');
}

describe.each(factories)('report store reads: %s', (_name, make) => {
  it('groups a day in the store: its first k by leads then opens, its exact total, and the groups asked for', async () => {
    const { store } = make();
    await knownDay(store);
    const top = await store.dayTop(day(), 2);
    expect(top.more).toBe(true);
    expect(top.top).toEqual([
      { key: 'google', opened: 6, requested: 2, placed: 2, answered: 1, talked: 1, missed: 1, failed: 0, noConsent: 1, answers: [[12.5, 1]] },
      { key: 'newsletter', opened: 3, requested: 1, placed: 1, answered: 1, talked: 0, missed: 0, failed: 0, noConsent: 1, answers: [[20, 1]] },
    ]);
    expect({ ...top.total, answers: [...top.total.answers].sort() }).toEqual({
      opened: 12,
      requested: 3,
      placed: 4,
      answered: 2,
      talked: 1,
      missed: 1,
      failed: 0,
      noConsent: 2,
      answers: [
        [12.5, 1],
        [20, 1],
      ],
    });
    const all = await store.dayTop(day(), 10);
    expect(all.more).toBe(false);
    expect(all.top.map((g) => [g.key, g.requested, g.opened])).toEqual([
      ['google', 2, 6],
      ['newsletter', 1, 3],
      ['', 0, 2],
      ['bing', 0, 1],
    ]);
    expect(all.top.find((g) => g.key === 'bing')).toMatchObject({ placed: 1, requested: 0 });
    const asked = await store.dayGroups(day(), ['bing', '', 'nobody']);
    expect(asked.sort((a, b) => a.key.localeCompare(b.key))).toEqual([
      { key: '', opened: 2, requested: 0, placed: 0, answered: 0, talked: 0, missed: 0, failed: 0, noConsent: 0, answers: [] },
      { key: 'bing', opened: 1, requested: 0, placed: 1, answered: 0, talked: 0, missed: 0, failed: 0, noConsent: 0, answers: [] },
    ]);
    const byPage = await store.dayTop(day('page'), 1);
    expect(byPage).toMatchObject({ more: true, top: [{ key: '/sofa', opened: 11, requested: 3 }] });
    expect((await store.dayTop({ ...day(), day: '2026-11-26', fromMs: day().toMs, toMs: day().toMs + 86_400_000 }, 5)).top).toEqual([]);
    // A group that ties the first one left out is left out too: '' and bing, 2 opens each, for the third place.
    await store.countOpen(DAY, group('bing'), 'add');
    const tied = await store.dayTop(day(), 3);
    expect(tied.top.map((g) => g.key)).toEqual(['google', 'newsletter']);
    expect(tied.more).toBe(true);
    expect((await store.dayTop(day(), 4)).top.map((g) => g.key)).toEqual(['google', 'newsletter', '', 'bing']);
  });

  it('reads the newest leads of a period, newest first, at most as many as asked', async () => {
    const { store } = make();
    await knownDay(store);
    const newest = await store.newestLeads(day().fromMs, day().toMs, 3);
    expect(newest.map((l) => l.callbackId)).toEqual(['b1', 'n1', 'g2']);
    expect(newest[1]).toMatchObject({ source: 'newsletter', placed: true, outcome: 'answered', answerSeconds: 20, talkSeconds: 5 });
    expect((await store.newestLeads(day().fromMs, day().toMs, 10)).map((l) => l.callbackId)).toEqual(['b1', 'n1', 'g2', 'g1']);
  });

  it('reads a flooded period into REPORT_GROUPS groups and "(other)", its totals, days and listed groups exact', async () => {
    const { store, flood } = make();
    // Per day: five real sources with leads, 110 steady sources (2 to 111 opens), 4,885 flood groups of one open.
    const spec: FloodSpec = { from: '2026-11-23', days: 3, floodGroups: 4_885, steadyGroups: 110, leadsPerDay: 40, timeZone: TZ };
    await flood(spec);
    const period = readPeriod(new URLSearchParams({ from: '2026-11-23', to: '2026-11-25' }), TZ);
    const report = await leadReport(store, period, 'source', { timeZone: TZ, talkSeconds: 10 });
    const truth = expected(spec, 10);

    // The bound: REPORT_GROUPS groups and "(other)", in well under a megabyte.
    expect(report.groups).toHaveLength(REPORT_GROUPS + 1);
    expect(report.groups.at(-1)!.key).toBe(OTHER);
    expect(report.truncated).toBe(true);
    expect(Buffer.byteLength(JSON.stringify(report))).toBeLessThan(64 * 1024);

    // Nothing lost: the totals are the plan's, every day adds up, every group with "(other)" too.
    expect(report.totals).toMatchObject(truth.totals);
    expect(report.days.map((d) => d.date)).toEqual(['2026-11-23', '2026-11-24', '2026-11-25']);
    for (const c of COUNT_NAMES) {
      expect(
        report.days.reduce((n, d) => n + d[c], 0),
        c,
      ).toBe(truth.totals[c]);
      expect(
        report.groups.reduce((n, g) => n + g[c], 0),
        c,
      ).toBe(truth.totals[c]);
    }
    // The sources with leads first, then the steadiest sources by opens, each exact.
    const order = [...truth.bySource].map(([source, c]) => ({ key: source || NONE, ...c })).sort(byLeadsThenOpens);
    expect(report.groups.slice(0, -1).map((g) => g.key)).toEqual(order.slice(0, REPORT_GROUPS).map((g) => g.key));
    expect(report.groups.slice(0, -1)).toMatchObject(order.slice(0, REPORT_GROUPS));
    expect(report.totals.medianAnswerSeconds).not.toBeNull();

    // Grouped by medium, the flood is one group ('' is "(none)") and nothing is cut.
    const byMedium: LeadReport = await leadReport(store, period, 'medium', { timeZone: TZ, talkSeconds: 10 });
    expect(byMedium.groups.map((g) => g.key)).toEqual(['cpc', NONE]);
    expect(byMedium.truncated).toBe(false);
    expect(byMedium.totals).toMatchObject(truth.totals);
  }, 60_000);

  it('lists no group that ties the first one left out: a flood of one-open groups is all "(other)"', async () => {
    const { store, flood } = make();
    const spec: FloodSpec = { from: '2026-11-24', days: 2, floodGroups: 4_990, leadsPerDay: 20, timeZone: TZ };
    await flood(spec);
    const period = readPeriod(new URLSearchParams({ from: '2026-11-24', to: '2026-11-25' }), TZ);
    const report = await leadReport(store, period, 'source', { timeZone: TZ, talkSeconds: 10 });
    expect(report.groups.map((g) => g.key)).toEqual(
      [...expected(spec, 10).bySource]
        .map(([source, c]) => ({ key: source || NONE, ...c }))
        .sort(byLeadsThenOpens)
        .map((g) => g.key)
        .concat(OTHER),
    );
    expect(report.groups.at(-1)).toMatchObject({ key: OTHER, opened: 2 * 4_990, requested: 0 });
  }, 60_000);

  it('sums a group whole when it was cut from the candidates and listed again days later', async () => {
    const { store } = make();
    const days = Array.from({ length: 11 }, (_, i) => `2026-11-${String(10 + i).padStart(2, '0')}`);
    const opens = async (day: string, source: string, n: number) => {
      for (let i = 0; i < n; i++) await store.countOpen(day, group(source), 'add');
    };
    // Day 0: "late" once among 50 groups of 5 opens; days 1-9: 100 new groups of 5 a day, so the
    // candidates are cut back and "late" (1 open) goes; day 10: "late" 50 times.
    await opens(days[0]!, 'late', 1);
    for (const [d, day] of days.slice(0, 10).entries()) for (let g = 0; g < (d === 0 ? 50 : 100); g++) await opens(day, `d${d}-${g}`, 5);
    await opens(days[10]!, 'late', 50);
    const period = readPeriod(new URLSearchParams({ from: days[0]!, to: days[10]! }), TZ);
    const report = await leadReport(store, period, 'source', { timeZone: TZ, talkSeconds: 10 });
    expect(report.groups.map((g) => [g.key, g.opened])).toEqual([
      ['late', 51],
      [OTHER, 950 * 5],
    ]);
    expect(report.totals.opened).toBe(51 + 950 * 5);
  }, 60_000);
});
