// A visitor's data erased on request takes the stored answers of the number's requests with it: an
// Idempotency-Key's answer names the request (requestId) beside the masked number for a day. Each
// store (memory, SQLite, Redis, Redis Cluster) forgets the finished answers of the given request
// ids, and keeps every other entry, a running one included.
import { describe, expect, it } from 'vitest';
import type { IdempotencyStore, IdempotencyStoreOptions } from '../../../server/src/idempotency/idempotency-store.ts';
import { createMemoryIdempotencyStore } from '../../../server/src/idempotency/memory-store.ts';
import { createRedisIdempotencyStore } from '../../../server/src/idempotency/redis-store.ts';
import { createSqliteIdempotencyStore } from '../../../server/src/idempotency/sqlite-store.ts';
import { openDatabase } from '../../../server/src/storage/sqlite/database.ts';
import { tempDataDir } from '../../support/crash.ts';
import { redisForTests } from '../../support/redis-test-connection.ts';
import { T0 } from '../../support/store-scenarios.ts';

const S = 'https://shop.example';
const SECRET = 'a-test-hash-secret-0123456789';
const redis = redisForTests();
const redisCluster = redisForTests({ cluster: true });
const factories: Array<[string, (o: IdempotencyStoreOptions) => IdempotencyStore]> = [
  ['memory', (o) => createMemoryIdempotencyStore(o)],
  ['sqlite', (o) => createSqliteIdempotencyStore({ ...o, hashSecret: SECRET, db: openDatabase({ dataDir: tempDataDir() }) })],
  ['redis', (o) => createRedisIdempotencyStore({ ...o, hashSecret: SECRET, connection: redis.fresh() })],
  ['redis-cluster', (o) => createRedisIdempotencyStore({ ...o, hashSecret: SECRET, connection: redisCluster.fresh() })],
];

const answerOf = (requestId: string) => ({ status: 202, body: { status: 'queued', requestId, phoneMasked: '+380 50 *** **67' }, headers: { 'x-request-id': requestId } });

describe.each(factories)('stored answers forgotten with a number: %s', (_name, make) => {
  it('forgets the finished answers of the given requests and keeps the rest', async () => {
    const store = make({ ttlSec: 600, maxKeys: 100, now: () => T0 });
    for (const [key, id] of [
      ['k1', 'cb-erased-1'],
      ['k2', 'cb-erased-2'],
      ['k3', 'cb-other'],
    ] as const) {
      const begun = await store.begin(S, key, `fp-${key}`);
      if (begun.kind !== 'new') throw new Error('a new key');
      await begun.ticket.complete(answerOf(id));
    }
    const running = await store.begin(S, 'k4', 'fp-k4');
    expect(running.kind).toBe('new');
    expect(await store.size()).toBe(4);

    expect(await store.forgetAnswers(new Set(['cb-erased-1', 'cb-erased-2', 'cb-unknown']))).toBe(2);
    expect(await store.has(S, 'k1')).toBe(false);
    expect(await store.has(S, 'k2')).toBe(false);
    expect(await store.size()).toBe(2);
    expect(await store.begin(S, 'k3', 'fp-k3')).toMatchObject({ kind: 'replay', reply: { body: { requestId: 'cb-other' } } });
    expect(await store.has(S, 'k4')).toBe(true);
    // The forgotten key is free: the same request sent again is a new one.
    expect((await store.begin(S, 'k1', 'fp-k1')).kind).toBe('new');
    expect(await store.forgetAnswers(new Set())).toBe(0);
  });
});
