// The Redis report store's index of each day's opens (per dimension, sorted by opens, and the day's
// total), kept beside the day's hash: written when an open is counted, moved when a value is
// erased, built from the hash for a day counted before it existed, and expiring with the hash.
import { describe, expect, it } from 'vitest';
import { dayKeys } from '../../../server/src/report/redis-open-index.ts';
import { createRedisReportStore } from '../../../server/src/report/redis-report-store.ts';
import { type DayQuery, groupValues, REPORT_DIMENSIONS } from '../../../server/src/report/report-store.ts';
import type { RedisConnection } from '../../../server/src/storage/redis/connection.ts';
import { redisForTests } from '../../support/redis-test-connection.ts';

const redis = redisForTests();
const NOW = Date.parse('2026-11-25T10:00:00Z');
const DAY = '2026-11-25';
const query = (by: DayQuery['by']): DayQuery => ({ day: DAY, fromMs: Date.parse(`${DAY}T00:00:00Z`), toMs: Date.parse(`${DAY}T00:00:00Z`) + 86_400_000, by, talkSeconds: 10 });
const mentions = { digits: '501234567', matches: (value: string) => value.replace(/\D/g, '').includes('501234567') };

async function countSome(connection: RedisConnection) {
  const store = createRedisReportStore({ connection, now: () => NOW });
  for (const [source, page, n] of [
    ['google', '/sofa', 3],
    ['google', '/chair', 2],
    ['tg 0501234567', '/', 2],
    ['', '/sofa', 1],
  ] as const)
    for (let i = 0; i < n; i++) await store.countOpen(DAY, groupValues({ source, page, medium: 'cpc' }), 'add');
  return store;
}

/** Every index key's members and scores, and the total, as Redis holds them. */
async function indexOf(connection: RedisConnection) {
  const [, total, ...sets] = dayKeys(connection.keyspace('report'), DAY);
  const byDimension: Record<string, Array<[string, number]>> = {};
  for (const [i, key] of sets.entries()) byDimension[REPORT_DIMENSIONS[i]!] = (await connection.client.zRangeWithScores(key!, 0, -1)).map((m) => [m.value, m.score]);
  return { total: await connection.client.get(total!), byDimension };
}

describe('the Redis report store’s index of a day’s opens', () => {
  it('is written as opens are counted, and every key of the day expires with its hash', async () => {
    const connection = redis.fresh();
    await countSome(connection);
    expect(await indexOf(connection)).toEqual({
      total: '8',
      byDimension: {
        source: [
          ['', 1],
          ['tg 0501234567', 2],
          ['google', 5],
        ],
        medium: [['cpc', 8]],
        campaign: [['', 8]],
        department: [['', 8]],
        page: [
          ['/', 2],
          ['/chair', 2],
          ['/sofa', 4],
        ],
      },
    });
    const keys = dayKeys(connection.keyspace('report'), DAY);
    const hashTtl = await connection.client.pTTL(keys[0]!);
    expect(hashTtl).toBeGreaterThan(400 * 86_400_000);
    for (const key of keys) expect(Math.abs((await connection.client.pTTL(key)) - hashTtl)).toBeLessThan(60_000);
  });

  it('moves an erased value’s opens in every dimension, and the keys keep their expiry', async () => {
    const connection = redis.fresh();
    const store = await countSome(connection);
    const keys = dayKeys(connection.keyspace('report'), DAY);
    for (const key of keys) await connection.client.pExpire(key, 86_400_000);
    expect(await store.eraseValues(mentions)).toEqual({ leads: 0, opens: 1 });
    const { byDimension, total } = await indexOf(connection);
    expect(total).toBe('8');
    expect(byDimension.source).toEqual([
      ['', 1],
      ['(erased)', 2],
      ['google', 5],
    ]);
    expect(byDimension.page).toEqual([
      ['/', 2],
      ['/chair', 2],
      ['/sofa', 4],
    ]);
    for (const key of keys) expect(await connection.client.pTTL(key)).toBeLessThanOrEqual(86_400_000);
    for (const key of keys) expect(await connection.client.pTTL(key)).toBeGreaterThan(0);
  });

  it('is built from the hash for a day counted before the index existed, by a count or a read alike', async () => {
    const counted = redis.fresh();
    await countSome(counted);
    const expectedIndex = await indexOf(counted);
    for (const read of [false, true]) {
      const connection = redis.fresh();
      const store = await countSome(connection);
      const [hash, ...index] = dayKeys(connection.keyspace('report'), DAY);
      await connection.client.del(index);
      await connection.client.pExpire(hash!, 86_400_000);
      if (read) {
        expect((await store.dayTop(query('page'), 10)).total.opened).toBe(8);
        expect(await indexOf(connection)).toEqual(expectedIndex);
      } else {
        await store.countOpen(DAY, groupValues({ source: 'google', page: '/sofa', medium: 'cpc' }), 'add');
        expect((await indexOf(connection)).total).toBe('9');
        expect((await indexOf(connection)).byDimension.source).toContainEqual(['google', 6]);
      }
      for (const key of index) expect(await connection.client.pTTL(key)).toBeGreaterThan(0);
    }
  });
});
