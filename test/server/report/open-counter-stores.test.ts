// The open counter over each pair of stores a relay can run on (memory, SQLite, Redis, a real Redis
// Cluster): the hourly limits of opens, the daily limits of new groups per client and per network
// (their checks in one script, so one Cluster slot) and the department check hold on every one.
import { beforeEach, describe, expect, it } from 'vitest';
import type { DepartmentSettings } from '../../../server/src/departments/department.ts';
import type { LimitStore } from '../../../server/src/limits/limit-store.ts';
import { createMemoryLimitStore } from '../../../server/src/limits/memory/limit-store.ts';
import { createRedisLimitStore } from '../../../server/src/limits/redis/limit-store.ts';
import { createSqliteLimitStore } from '../../../server/src/limits/sqlite/limit-store.ts';
import { OPEN_GROUPS_PER_CLIENT, OPEN_GROUPS_PER_NETWORK, OPENS_PER_CLIENT, createOpenCounter, type OpenBeacon } from '../../../server/src/report/count-open.ts';
import { createMemoryReportStore } from '../../../server/src/report/memory-report-store.ts';
import { createRedisReportStore } from '../../../server/src/report/redis-report-store.ts';
import type { ReportStore } from '../../../server/src/report/report-store.ts';
import { createSqliteReportStore } from '../../../server/src/report/sqlite-report-store.ts';
import { openDatabase } from '../../../server/src/storage/sqlite/database.ts';
import { tempDataDir } from '../../support/crash.ts';
import { redisForTests } from '../../support/redis-test-connection.ts';

// 08:00 in Kyiv: the hours a test moves on stay in one day.
const T0 = Date.parse('2026-11-25T06:00:00Z');
const DAY = '2026-11-25';
let ms = T0;
const now = () => ms;
const redis = redisForTests();
const redisCluster = redisForTests({ cluster: true });
type Stores = { report: ReportStore; limits: LimitStore };
const factories: [string, () => Stores][] = [
  ['memory', () => ({ report: createMemoryReportStore({ now }), limits: createMemoryLimitStore({ maxKeysPerTable: 100_000, startMs: T0 }) })],
  [
    'sqlite',
    () => {
      const db = openDatabase({ dataDir: tempDataDir() });
      return { report: createSqliteReportStore({ db, now }), limits: createSqliteLimitStore({ db, maxKeysPerTable: 100_000, now }) };
    },
  ],
  ['redis', () => ({ report: createRedisReportStore({ connection: redis.fresh(), now }), limits: createRedisLimitStore({ connection: redis.fresh() }) })],
  ['redis-cluster', () => ({ report: createRedisReportStore({ connection: redisCluster.fresh(), now }), limits: createRedisLimitStore({ connection: redisCluster.fresh() }) })],
];

const sales = { id: 'sales', name: { en: 'Sales' }, caller: '380441112233', callerType: 'default', hours: null, timeZone: 'Europe/Kyiv', agents: null } as const;
const departments: DepartmentSettings = { fromFile: true, list: [sales] };

// Before each test makes its stores: the SQLite limit store takes its origin from the clock.
beforeEach(() => {
  ms = T0;
});

function counterOver(stores: Stores) {
  const counter = createOpenCounter({ ...stores, hashSecret: 'a-test-hash-secret-0123456789', timeZone: 'Europe/Kyiv', departments, now });
  const count = (beacon: OpenBeacon, ip: string) => counter.count(beacon, ip);
  const sources = async () => Object.fromEntries((await stores.report.opens(DAY, DAY)).map((o) => [o.source, o.count]));
  return { count, sources };
}

describe.each(factories)('the open counter over %s', (_name, make) => {
  it('counts a client OPENS_PER_CLIENT opens an hour and lets it start OPEN_GROUPS_PER_CLIENT new groups a day', async () => {
    const { count, sources } = counterOver(make());
    const outcomes: string[] = [];
    let n = 0;
    for (let hour = 0; hour < 3; hour++) {
      for (let i = 0; i < OPENS_PER_CLIENT + 1; i++) outcomes.push(await count({ utmSource: `g-${n++}` }, '198.51.100.7'));
      ms += 3_601_000;
    }
    expect(outcomes.filter((o) => o === 'over_limit')).toHaveLength(3);
    expect(outcomes.filter((o) => o === 'counted')).toHaveLength(3 * OPENS_PER_CLIENT);
    const counts = await sources();
    expect(Object.keys(counts).filter((k) => k.startsWith('g-'))).toHaveLength(OPEN_GROUPS_PER_CLIENT);
    expect(counts['(other)']).toBe(3 * OPENS_PER_CLIENT - OPEN_GROUPS_PER_CLIENT);
  });

  it('holds an IPv6 client that takes a fresh /64 for every open to its networks’ new groups', async () => {
    const { count, sources } = counterOver(make());
    for (let i = 0; i < 2 * OPEN_GROUPS_PER_NETWORK; i++) {
      // Within the network's hourly opens (OPENS_PER_NETWORK = OPEN_GROUPS_PER_NETWORK), which Redis
      // counts in two-window counters: two hours on, the first hour's weigh nothing.
      if (i === OPEN_GROUPS_PER_NETWORK) ms += 7_201_000;
      expect(await count({ utmSource: `v6-${i}` }, `2001:db8:77:${i.toString(16)}::1`)).toBe('counted');
    }
    const counts = await sources();
    expect(Object.keys(counts).filter((k) => k.startsWith('v6-'))).toHaveLength(OPEN_GROUPS_PER_NETWORK);
    expect(counts['(other)']).toBe(OPEN_GROUPS_PER_NETWORK);
  });

  it('counts nothing for a department the relay does not offer, before any limit is spent', async () => {
    const { count, sources } = counterOver(make());
    for (let i = 0; i < 2 * OPENS_PER_CLIENT; i++) expect(await count({ department: 'ceo-office' }, '198.51.100.7')).toBe('unknown_department');
    expect(await count({ department: 'sales', utmSource: 'google' }, '198.51.100.7')).toBe('counted');
    expect(await sources()).toEqual({ google: 1 });
  });
});
