// `npm run store -- move embedded redis` and back, as an operator runs it, on one Redis, a Sentinel
// group and a 3-primary Cluster. An embedded store holding every kind of record (booked and held
// calls, a finished call, outbox events, never-call entries, consent records, call-back numbers, a
// year of report facts and opens, the digest's leads, Idempotency-Keys) is moved to Redis: each
// kind arrives whole with its remaining time to live, the lead report answers the same figures,
// and three relays on Redis place each pending call exactly once. Then everything goes back to a
// new DATA_DIR, finished calls included, and the report answers the same there.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createRedisReportStore } from '../../../server/src/report/redis-report-store.ts';
import { createSqliteReportStore } from '../../../server/src/report/sqlite-report-store.ts';
import { openDatabase } from '../../../server/src/storage/sqlite/database.ts';
import { openEmbeddedStore } from '../../../server/src/app/sqlite-stores.ts';
import { connectRedis, type RedisConnection } from '../../../server/src/storage/redis/connection.ts';
import { tempDataDir } from '../../support/crash.ts';
import { startRedisCluster } from '../../support/redis-cluster.ts';
import { MASTER_NAME, startSentinelGroup } from '../../support/redis-sentinel.ts';
import { startRedisServer } from '../../support/redis-server.ts';
import { relayEnv, startRelay, waitUntil } from '../../support/relay-processes.ts';
import { HASH_SECRET, reportFigures, seedEmbedded, storeCommand } from '../../support/store-move.ts';
import { relayFleet } from '../../support/relay-fleet.ts';

const DAY_MS = 86_400_000;
const quiet = { info() {}, warn() {}, error() {} };

interface SharedRedis {
  /** What the relays and the command are given. */
  env: Record<string, string>;
  /** A connection of the test's own, closed before each move: a live one writes the write-check key as a relay does. */
  connect(): RedisConnection;
  stop(): Promise<void>;
}

const settings = { prefix: 'moved:', commandTimeoutMs: 5_000, connectTimeoutMs: 3_000 };
const ENV = { REDIS_PREFIX: settings.prefix, HASH_SECRET };

async function oneRedis(): Promise<SharedRedis> {
  const redis = await startRedisServer({ persistent: false });
  return { env: { ...ENV, REDIS_URL: redis.url }, connect: () => connectRedis({ ...settings, url: redis.url }, { log: quiet }), stop: () => redis.stop() };
}

async function sentinelGroup(): Promise<SharedRedis> {
  const group = await startSentinelGroup({ persistent: false });
  const topology = { kind: 'sentinel' as const, name: MASTER_NAME, sentinels: group.sentinelPorts.map((port) => ({ host: '127.0.0.1', port })) };
  return {
    env: { ...ENV, REDIS_SENTINELS: group.sentinels, REDIS_SENTINEL_NAME: MASTER_NAME },
    connect: () => connectRedis({ ...settings, url: 'redis://sentinel-primary', topology }, { log: quiet }),
    stop: () => group.stop(),
  };
}

async function redisCluster(): Promise<SharedRedis> {
  const cluster = await startRedisCluster(3);
  const topology = { kind: 'cluster' as const, seeds: cluster.nodes.map((n) => n.url) };
  return {
    env: { ...ENV, REDIS_CLUSTER: 'true', REDIS_URL: cluster.seeds },
    connect: () => connectRedis({ ...settings, url: cluster.nodes[0]!.url, topology }, { log: quiet }),
    stop: () => cluster.stop(),
  };
}

const fleet = relayFleet();

type Summary = Record<string, { moved: number; added: number; replaced: number; refused: string[]; before: number; after: number }>;

/** The embedded store's lead report, read from its file (its report store alone: no purge runs, as none would on a stopped relay's file). */
async function embeddedFigures(dataDir: string) {
  const db = openDatabase({ dataDir });
  try {
    return await reportFigures(createSqliteReportStore({ db }));
  } finally {
    db.close();
  }
}

describe.each([
  ['one Redis', oneRedis],
  ['a Sentinel group', sentinelGroup],
  ['a 3-primary Redis Cluster', redisCluster],
])('moving between the embedded store and %s', (_name, start) => {
  let redis: SharedRedis;
  beforeAll(async () => {
    redis = await start();
  }, 60_000);
  afterAll(async () => {
    await redis?.stop();
  });

  /** `look` with a connection of the test's own, closed after. */
  async function withRedis<T>(look: (connection: RedisConnection, client: RedisConnection['client']) => Promise<T>): Promise<T> {
    const connection = redis.connect();
    try {
      if (!(await connection.waitReady(15_000))) throw new Error('the test redis did not answer');
      return await look(connection, connection.client);
    } finally {
      await connection.close();
    }
  }
  const key = (group: string, rest: string) => `${settings.prefix}{${settings.prefix}${group}}:${rest}`;

  it('every kind arrives with its time to live, three relays place each pending call once, the report is the same; and back', async () => {
    const dataDir = tempDataDir();
    const now = Date.now();
    const seeded = await seedEmbedded(dataDir, { calls: 10, facts: 600, dueAt: now + 3_000, nowMs: now });
    const before = await embeddedFigures(dataDir);

    const moved = await storeCommand(['move', 'embedded', 'redis'], { ...redis.env, DATA_DIR: dataDir });
    expect(moved.code, moved.err).toBe(0);
    const summary = JSON.parse(moved.out) as Summary;
    const carried = Object.fromEntries(Object.entries(summary).map(([kind, s]) => [kind, s.moved]));
    expect(carried).toEqual({
      calls: 11,
      outbox: 11,
      consent: 10,
      'never-call': 2,
      'call-back-numbers': 1,
      'report-leads': 600,
      'report-opens': summary['report-opens']!.moved,
      'digest-leads': 10,
      'idempotency-keys': 2,
    });
    expect(summary['report-opens']!.moved).toBeGreaterThan(100);
    for (const s of Object.values(summary)) expect(s).toMatchObject({ added: s.moved, replaced: 0, refused: [], before: 0, after: s.moved });

    // Remaining times to live: pending calls and events none; the rest what was left of theirs.
    await withRedis(async (connection, client) => {
      const pttl = (k: string) => client.pTTL(k);
      for (const id of seeded.callbackIds) expect(await pttl(key('jobs', `job:${id}`))).toBe(-1);
      expect(await client.zCard(key('jobs', 'pending'))).toBe(10);
      expect(await client.hLen(key('jobs', 'numbers'))).toBe(8);
      const consentLeft = await pttl(key('consent', seeded.callbackIds[0]!));
      expect(consentLeft).toBeGreaterThan(30 * DAY_MS - 120_000);
      expect(consentLeft).toBeLessThanOrEqual(30 * DAY_MS - 60_000);
      const delivered = await pttl(key('outbox', 'ev:evt-done'));
      expect(delivered).toBeGreaterThan(29 * DAY_MS - 60_000);
      expect(delivered).toBeLessThan(29 * DAY_MS + 2_000);
      expect(await pttl(key('outbox', `ev:evt-${seeded.callbackIds[0]}`))).toBe(-1);
      expect(await client.zCard(key('outbox', 'due'))).toBe(10);
      // A finished call and a delivered event keep no number on the other side, purged yet or not here.
      expect(await client.hmGet(key('jobs', `job:${seeded.finishedId}`), ['e164', 'clientIp', 'userAgent'])).toEqual([null, null, null]);
      expect(await client.hGet(key('outbox', 'ev:evt-done'), 'body')).toBeNull();
      const doneJob = await pttl(key('jobs', `job:${seeded.finishedId}`));
      expect(doneJob).toBeGreaterThan(29 * DAY_MS - 60_000);
      expect(doneJob).toBeLessThan(29 * DAY_MS + 2_000);
      const callBack = key('callback-numbers', `n:${seeded.finishedId}`);
      expect(await pttl(callBack)).toBeGreaterThan(3 * DAY_MS - 60_000);
      expect(await pttl(callBack)).toBeLessThanOrEqual(3 * DAY_MS);
      // The report answers the same figures from Redis.
      expect(await reportFigures(createRedisReportStore({ connection }))).toEqual(before);
    });

    // Three relays on Redis: each pending call placed once.
    // The moved numbers share a prefix (its rate limit would rightly stop them), and a missed call is not re-dialled.
    const env = { ...relayEnv(fleet.sim, redis.env), ...redis.env, CALL_RING_SECONDS: '1', UPSTREAM_TIMEOUT_MS: '60000', LIMIT_PREFIX_RATE: '65000', REDIAL_ATTEMPTS: '0' };
    fleet.relays.push(...(await Promise.all([0, 1, 2].map(() => startRelay(env)))));
    const callers = () => fleet.sim.calls.map((c) => `+${c.caller}`).filter((c) => seeded.pending.includes(c));
    await waitUntil(() => new Set(callers()).size === seeded.pending.length, 'every moved call to be placed', 60_000);
    const report = await withRedis(async (connection, client) => {
      await waitUntil(async () => (await client.zCard(key('jobs', 'pending'))) === 0, 'every moved call to be settled', 60_000);
      // Every relay looked at the store again meanwhile (every 2 s): a second call would have come.
      await new Promise((r) => setTimeout(r, 4_000));
      expect(callers().sort()).toEqual([...seeded.pending].sort());
      return reportFigures(createRedisReportStore({ connection }));
    });

    // And back, to a new DATA_DIR, once the relays are stopped.
    await Promise.all(fleet.relays.splice(0).map((r) => r.kill('SIGTERM')));
    const back = tempDataDir();
    const returned = await storeCommand(['move', 'redis', 'embedded'], { ...redis.env, DATA_DIR: back });
    expect(returned.code, returned.err).toBe(0);
    const again = JSON.parse(returned.out) as Summary;
    expect(again.calls).toMatchObject({ moved: 11, added: 11, after: 11 });
    expect(again['report-leads']).toMatchObject({ moved: 600, after: 600 });
    expect(again['never-call']).toMatchObject({ moved: 2, after: 2 });
    expect(again.consent).toMatchObject({ moved: 10, after: 10 });
    const store = openEmbeddedStore({ dataDir: back, hashSecret: HASH_SECRET, retentionDays: 30, limiterMaxKeys: 1000, idempotency: { ttlSec: 86_400, maxKeys: 1000 } });
    try {
      expect(await store.jobs.listPending(100)).toEqual([]);
      for (const id of seeded.callbackIds) expect((await store.jobs.get(id))?.state).not.toBe('pending');
      expect(await reportFigures(store.report)).toEqual(report);
    } finally {
      await store.close();
    }
  }, 180_000);
});
