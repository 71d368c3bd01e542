// The LimitStore contract (limit-store-cases.ts), one suite run unchanged over every store: memory,
// the embedded SQLite store and Redis (a private redis-server for this file). Then what only the
// embedded stores have: a key cap per table (LIMITER_MAX_KEYS) at which they fail closed; Redis fails closed at maxmemory instead
// (limit-store-redis.test.ts).
import { describe, expect, it } from 'vitest';
import { createMemoryLimitStore } from '../../../server/src/limits/memory/limit-store.ts';
import type { LimitCheck, LimitStore } from '../../../server/src/limits/limit-store.ts';
import { createRedisLimitStore } from '../../../server/src/limits/redis/limit-store.ts';
import { openDatabase } from '../../../server/src/storage/sqlite/database.ts';
import { createSqliteLimitStore } from '../../../server/src/limits/sqlite/limit-store.ts';
import { redisForTests } from '../../support/redis-test-connection.ts';
import { tempDataDir } from '../../support/crash.ts';
import { hex, limitStoreCases, sec, type LimitStoreFactory } from '../../support/limit-store-cases.ts';

const redis = redisForTests();
// The same cases on a real 3-primary Redis Cluster (REDIS_CLUSTER=true): every script in one slot.
const redisCluster = redisForTests({ cluster: true });

const everyStore: [string, LimitStoreFactory][] = [
  ['memory', async (startMs) => createMemoryLimitStore({ maxKeysPerTable: 100_000, startMs })],
  ['sqlite', async (startMs) => createSqliteLimitStore({ db: openDatabase({ dataDir: tempDataDir() }), maxKeysPerTable: 100_000, now: () => startMs })],
  ['redis', async () => createRedisLimitStore({ connection: redis.fresh() })],
  ['redis-cluster', async () => createRedisLimitStore({ connection: redisCluster.fresh() })],
];

describe.each(everyStore)('limit store contract: %s', (_name, make) => {
  limitStoreCases(make);
});

type Embedded = (maxKeysPerTable: number, startMs: number) => LimitStore;
const embedded: [string, Embedded][] = [
  ['memory', (maxKeysPerTable, startMs) => createMemoryLimitStore({ maxKeysPerTable, startMs })],
  ['sqlite', (maxKeysPerTable, startMs) => createSqliteLimitStore({ db: openDatabase({ dataDir: tempDataDir() }), maxKeysPerTable, now: () => startMs })],
];

describe.each(embedded)('embedded limit store at its key cap: %s', (_name, create) => {
  const make = (maxKeysPerTable: number) => create(maxKeysPerTable, sec(0));
  it('fails closed at capacity, and makes room as old keys expire', async () => {
    const store = make(1000);
    const cooldown = (n: number): LimitCheck => ({ table: 'number', key: hex(String(n)), counts: [{ reason: 'number_cooldown', limit: 1, windowSec: 120 }] });
    for (let i = 0; i < 1000; i++) expect((await store.consume([cooldown(i)], sec(0))).ok).toBe(true);
    expect(await store.consume([cooldown(5000)], sec(1))).toEqual({ ok: false, refusals: [{ reason: 'limiter_full', retryAfter: 60 }] });
    expect((await store.consume([cooldown(7)], sec(1))).ok).toBe(false);
    expect((await store.consume([cooldown(5000)], sec(121))).ok).toBe(true);
    expect(store.sizes().number).toBe(1);
  });
});
