// Erasing visitor values from the lead report on every store (memory, SQLite, Redis, Redis Cluster):
// the leads and the day's open groups whose values mention a number are found, and erased by
// replacing the value with "(erased)"; what was counted stays, and two open groups of a day that
// become the same are one, their counts added.
import { describe, expect, it } from 'vitest';
import { ERASED_VALUE } from '../../../server/src/report/erase-values.ts';
import { createMemoryReportStore } from '../../../server/src/report/memory-report-store.ts';
import { createRedisReportStore } from '../../../server/src/report/redis-report-store.ts';
import { groupValues, type ReportStore } from '../../../server/src/report/report-store.ts';
import { createSqliteReportStore } from '../../../server/src/report/sqlite-report-store.ts';
import { openDatabase } from '../../../server/src/storage/sqlite/database.ts';
import { tempDataDir } from '../../support/crash.ts';
import { redisForTests } from '../../support/redis-test-connection.ts';

const NOW = Date.parse('2026-11-25T10:00:00Z');
const redis = redisForTests();
const redisCluster = redisForTests({ cluster: true });
const factories: Array<[string, () => ReportStore]> = [
  ['memory', () => createMemoryReportStore()],
  ['sqlite', () => createSqliteReportStore({ db: openDatabase({ dataDir: tempDataDir() }), now: () => NOW })],
  ['redis', () => createRedisReportStore({ connection: redis.fresh(), now: () => NOW })],
  ['redis-cluster', () => createRedisReportStore({ connection: redisCluster.fresh(), now: () => NOW })],
];

const mentions = { digits: '501234567', matches: (value: string) => value.replace(/\D/g, '').includes('501234567') };
const lead = (callbackId: string, at: number, values: Parameters<typeof groupValues>[0]) => ({ callbackId, at, requestedAs: 'now' as const, ...groupValues(values) });

describe.each(factories)('report values erased: %s', (_name, make) => {
  it('finds the leads and open groups that mention the number, then erases those values and keeps every count', async () => {
    const report = make();
    await report.addLead(lead('a', NOW - 3_600_000, { source: 'google', campaign: 'call 050 123 45 67', page: '/sofa' }));
    await report.markPlaced('a');
    await report.finish('a', 'answered', { answerSeconds: 12, talkSeconds: 60 });
    await report.addLead(lead('b', NOW - 300 * 86_400_000, { source: '+380501234567', medium: 'cpc', page: '/call/0501234567' }));
    await report.addLead(lead('c', NOW - 60_000, { source: 'google', campaign: 'sofa-2026', page: '/sofa' }));
    const day = '2026-11-25';
    const old = '2026-01-10';
    for (let i = 0; i < 3; i++) await report.countOpen(day, groupValues({ source: 'tg 0501234567', page: '/' }), 'add');
    await report.countOpen(day, groupValues({ source: 'tg 050-123-45-67', page: '/' }), 'add');
    await report.countOpen(day, groupValues({ source: 'newsletter', page: '/' }), 'add');
    await report.countOpen(old, groupValues({ source: 'google', page: '/p/380501234567' }), 'add');

    const found = await report.findValues(mentions, 10);
    expect(found.more).toBe(false);
    expect(found.leads.map((l) => [l.callbackId, l.fields]).sort()).toEqual([
      ['a', ['campaign']],
      ['b', ['source', 'page']],
    ]);
    expect(found.opens.map((o) => [o.day, o.source, o.page, o.count, o.fields]).sort()).toEqual([
      [old, 'google', '/p/380501234567', 1, ['page']],
      [day, 'tg 050-123-45-67', '/', 1, ['source']],
      [day, 'tg 0501234567', '/', 3, ['source']],
    ]);
    expect((await report.findValues(mentions, 1)).more).toBe(true);

    expect(await report.eraseValues(mentions)).toEqual({ leads: 2, opens: 3 });
    expect(await report.findValues(mentions, 10)).toEqual({ leads: [], opens: [], more: false });
    const leads = (await report.leads(0, NOW + 1)).sort((x, y) => x.callbackId.localeCompare(y.callbackId));
    expect(leads).toEqual([
      expect.objectContaining({ callbackId: 'a', source: 'google', campaign: ERASED_VALUE, page: '/sofa', placed: true, outcome: 'answered', talkSeconds: 60 }),
      expect.objectContaining({ callbackId: 'b', source: ERASED_VALUE, medium: 'cpc', page: ERASED_VALUE }),
      expect.objectContaining({ callbackId: 'c', source: 'google', campaign: 'sofa-2026' }),
    ]);
    const opens = (await report.opens(old, day)).map((o) => [o.day, o.source, o.page, o.count]).sort();
    expect(opens).toEqual([
      [old, 'google', ERASED_VALUE, 1],
      [day, ERASED_VALUE, '/', 4],
      [day, 'newsletter', '/', 1],
    ]);
    // The report's own read of each day, grouped where the store keeps it, says the same.
    const grouped = async (date: string, by: 'source' | 'page') => {
      const fromMs = Date.parse(`${date}T00:00:00Z`);
      const { top, total } = await report.dayTop({ day: date, fromMs, toMs: fromMs + 86_400_000, by, talkSeconds: 10 }, 10);
      return { top: top.map((g) => [g.key, g.opened, g.requested]).sort(), opened: total.opened };
    };
    expect(await grouped(day, 'source')).toEqual({
      top: [
        [ERASED_VALUE, 4, 0],
        ['google', 0, 2],
        ['newsletter', 1, 0],
      ],
      opened: 5,
    });
    expect(await grouped(old, 'page')).toEqual({ top: [[ERASED_VALUE, 1, 0]], opened: 1 });
    // Erasing again finds nothing, and the opens go on being counted.
    expect(await report.eraseValues(mentions)).toEqual({ leads: 0, opens: 0 });
    await report.countOpen(day, groupValues({ source: 'newsletter', page: '/' }), 'add');
    expect((await report.opens(day, day)).find((o) => o.source === 'newsletter')?.count).toBe(2);
  });
});
