// A relay upgraded in place finds every call the older relay held, each in the stage it was in.
// The older relay (commit ca5ca3d) kept a job's kind ('redial' also meant "following a call the
// service took") and a JSON notes string; its SQLite file and Redis keys (fixtures/legacy-stores,
// written by that relay's own code) are opened by today's stores, and each job is compared field by
// field with what that relay read back.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { CallbackJob, CallbackJobStore } from '../../../server/src/callback/job-store.ts';
import { migrateLegacyJobs } from '../../../server/src/callback/stores/redis-job-migration.ts';
import { createRedisCallbackJobStore } from '../../../server/src/callback/stores/redis-job-store.ts';
import { createSqliteCallbackJobStore } from '../../../server/src/callback/stores/sqlite-job-store.ts';
import type { RequestedAs, Stage } from '../../../server/src/callback/stages.ts';
import { openDatabase } from '../../../server/src/storage/sqlite/database.ts';
import { schemaVersion } from '../../../server/src/storage/sqlite/migrations.ts';
import { migrations } from '../../../server/src/storage/sqlite/schema.ts';
import { connectRedis, type RedisConnection } from '../../../server/src/storage/redis/connection.ts';
import { legacyDataDir, legacyExpected, loadLegacyRedis, type LegacyJob } from '../../support/legacy-stores.ts';
import { startRedisCluster } from '../../support/redis-cluster.ts';
import { startRedisServer, type RedisServer } from '../../support/redis-server.ts';

const expected = legacyExpected();
const NOW = expected.now;

/**
 * Each job's stage and how it came in, as read from its story (fixtures/legacy-stores/README.md).
 * J16 was held while the service was down, then placed; the older relay's notes kept nothing of the
 * hold once the call was placed, so it reads as a call placed at once.
 */
const STAGES: Record<string, [Stage, RequestedAs]> = {
  J01: ['scheduled', 'scheduled'],
  J02: ['scheduled', 'scheduled'],
  J03: ['queued', 'queued'],
  J04: ['following', 'now'],
  J05: ['following', 'now'],
  J06: ['following', 'scheduled'],
  J07: ['redial', 'now'],
  J08: ['redial', 'now'],
  J09: ['following', 'now'],
  J10: ['checking', 'scheduled'],
  J11: ['checking', 'queued'],
  J12: ['scheduled', 'scheduled'],
  J13: ['scheduled', 'scheduled'],
  J14: ['checking', 'scheduled'],
  J15: ['queued', 'scheduled'],
  J16: ['following', 'now'],
  J17: ['answered', 'now'],
  J18: ['missed', 'now'],
  J19: ['failed', 'queued'],
  J20: ['cancelled', 'scheduled'],
  J21: ['cancelled', 'scheduled'],
};

function expectIntact(job: CallbackJob | undefined, old: LegacyJob): void {
  const [stage, requestedAs] = STAGES[old.key]!;
  const notes = old.notes ?? {};
  expect(job, old.key).toBeDefined();
  expect({ key: old.key, ...job }).toEqual({
    key: old.key,
    callbackId: old.callbackId,
    requestedAs,
    stage,
    state: old.state,
    dueAt: old.dueAt,
    request: { ...old.request, e164: old.e164 },
    numberHash: old.numberHash,
    maskedNumber: old.maskedNumber,
    // A call placed at once never handed its token to anyone: it is not kept.
    cancellable: old.cancelToken !== null && requestedAs !== 'now',
    attempts: old.attempts,
    leaseOwner: old.lease?.owner ?? null,
    leaseExpiresAt: old.lease?.expiresAt ?? null,
    interrupted: old.interrupted,
    outcome: old.outcome,
    progress: {
      scheduledFor: notes.scheduledFor ?? (old.kind === 'scheduled' ? old.dueAt : null),
      queuedAt: notes.queuedAt ?? (old.kind === 'queued' ? old.createdAt : null),
      unreachableTries: notes.unreachable ?? 0,
      lastAttemptAt: notes.last?.at ?? null,
      retriedUnknown: notes.retriedUnknown ?? false,
      redials: notes.redials ?? 0,
      dueSince: notes.dueSince ?? null,
    },
    createdAt: old.createdAt,
    updatedAt: old.updatedAt,
  });
}

/** What today's relay can do with the jobs it found: claim the due ones, cancel a booking with the visitor's token, not a followed call. */
async function stillWorks(store: CallbackJobStore): Promise<void> {
  const byKey = (key: string) => expected.jobs.find((j) => j.key === key)!;
  const pending = expected.jobs.filter((j) => j.state === 'pending');
  expect((await store.listPending(100)).map((j) => j.callbackId).sort()).toEqual(pending.map((j) => j.callbackId).sort());
  expect(await store.cancel(byKey('J04').callbackId, null, NOW)).toBe('placed');
  expect(await store.cancel(byKey('J01').callbackId, 'not-the-token', NOW)).toBe('wrong_token');
  expect(await store.cancel(byKey('J01').callbackId, byKey('J01').cancelToken, NOW)).toBe('cancelled');
  // An hour on, every pending call but the one just cancelled is due; the one a killed relay held
  // (J12, leased until NOW+58 s) is taken over, flagged interrupted.
  const claimed = await store.claimDue('relay-new', NOW + 3_600_000, 60_000, 100);
  expect(claimed.map((j) => j.callbackId).sort()).toEqual(
    pending
      .filter((j) => j.key !== 'J01')
      .map((j) => j.callbackId)
      .sort(),
  );
  expect(claimed.find((j) => j.callbackId === byKey('J12').callbackId)).toMatchObject({ interrupted: true, stage: 'scheduled' });
}

describe('an SQLite file written before stages existed', () => {
  it('is migrated in one step, and every job is where it was, its notes now typed fields', async () => {
    const dir = legacyDataDir();
    const db = openDatabase({ dataDir: dir });
    expect(schemaVersion(db)).toBe(migrations.length);
    const store = createSqliteCallbackJobStore({ db });
    for (const old of expected.jobs) expectIntact(await store.get(old.callbackId), old);
    // The other tables were not touched.
    const count = (table: string) => (db.prepare(`SELECT count(*) AS n FROM ${table}`).get() as { n: number }).n;
    expect([count('idempotency'), count('consent'), count('webhook_outbox'), count('limit_events')]).toEqual([20, 10, 26, 144]);
    await stillWorks(store);
    db.close();
  });
});

/** One redis-server, or a real 3-primary Redis Cluster (where the migration script's keys must share a slot). */
async function legacyRedis(cluster: boolean): Promise<{ connection: RedisConnection; stop(): Promise<void> }> {
  const settings = { prefix: 'dialback:', commandTimeoutMs: 2_000, connectTimeoutMs: 3_000 };
  const quiet = { log: { info() {}, warn() {}, error() {} } };
  if (cluster) {
    const nodes = await startRedisCluster(3);
    const seeds = nodes.nodes.map((n) => n.url);
    await loadLegacyRedis(seeds);
    return { connection: connectRedis({ ...settings, url: seeds[0]!, topology: { kind: 'cluster', seeds } }, quiet), stop: () => nodes.stop() };
  }
  const server: RedisServer = await startRedisServer({ persistent: false });
  await loadLegacyRedis(server.url);
  return { connection: connectRedis({ ...settings, url: server.url }, quiet), stop: () => server.stop() };
}

describe.each([
  ['one Redis', false],
  ['a 3-primary Redis Cluster', true],
])('Redis keys written before stages existed, on %s', (_name, cluster) => {
  let redis: Awaited<ReturnType<typeof legacyRedis>> | undefined;
  let connection: RedisConnection;
  beforeAll(async () => {
    redis = await legacyRedis(cluster);
    connection = redis.connection;
    if (!(await connection.waitReady(10_000))) throw new Error('redis did not answer');
  }, 60_000);
  afterAll(async () => {
    await connection?.close();
    await redis?.stop();
  });

  it('are read as the migration writes them, migrated once (pending and failed jobs), and every job is where it was', async () => {
    const store = createRedisCallbackJobStore({ connection, retentionDays: 30 });
    // Read before any write: derived from the old fields.
    for (const old of expected.jobs) expectIntact(await store.get(old.callbackId), old);
    const indexed = expected.jobs.filter((j) => j.state === 'pending' || j.state === 'failed').length;
    expect(await migrateLegacyJobs(connection)).toBe(indexed);
    expect(await migrateLegacyJobs(connection)).toBe(0);
    for (const old of expected.jobs) expectIntact(await store.get(old.callbackId), old);
    await stillWorks(store);
  });
});
