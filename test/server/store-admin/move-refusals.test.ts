// What `npm run store -- move` refuses, and what --merge does, on one Redis: a target that already
// holds records (refused, nothing written, either way round), a relay still running on either
// store, a HASH_SECRET that is not the one the stored hashes were made with, usage mistakes; and a
// merge, where the moved records win over the target's own of the same id.
import { spawn } from 'node:child_process';
import { join } from 'node:path';
import { DatabaseSync } from 'node:sqlite';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { startSimulator, type Simulator } from '../../../server/simulator/index.ts';
import { openEmbeddedStore } from '../../../server/src/app/sqlite-stores.ts';
import { createRedisReportStore } from '../../../server/src/report/redis-report-store.ts';
import { connectRedis, type RedisConnection } from '../../../server/src/storage/redis/connection.ts';
import { tempDataDir } from '../../support/crash.ts';
import { redisContents } from '../../support/redis-contents.ts';
import { startRedisServer, type RedisServer } from '../../support/redis-server.ts';
import { relayEnv, startRelay, untilReady } from '../../support/relay-processes.ts';
import { HASH_SECRET, reportFigures, seedEmbedded, storeCommand } from '../../support/store-move.ts';

const cleanup: Array<() => Promise<void> | void> = [];
afterEach(async () => {
  for (const fn of cleanup.splice(0).reverse()) await fn();
});

let redis: RedisServer;
let prefixes = 0;
beforeAll(async () => {
  redis = await startRedisServer({ persistent: false });
});
afterAll(async () => {
  await redis?.stop();
});

/** The command's environment for a prefix of its own (an empty Redis deployment per test). */
function freshEnv(dataDir: string): Record<string, string> {
  return { DATA_DIR: dataDir, REDIS_URL: redis.url, REDIS_PREFIX: `refuse${++prefixes}:`, HASH_SECRET };
}

/** A prefix's keys and values, but the write check's key (any connection, the command's own too, writes it). */
const contents = async (prefix: string) => (await redisContents([redis.url], prefix)).filter((line) => !line.includes(':check '));

/** Rows per table of a store file. */
function rows(dataDir: string): Record<string, number> {
  const db = new DatabaseSync(join(dataDir, 'dialback.sqlite'), { readOnly: true });
  try {
    const tables = db.prepare("SELECT name FROM sqlite_schema WHERE type = 'table' AND name NOT LIKE 'sqlite_%'").all() as Array<{ name: string }>;
    return Object.fromEntries(tables.map(({ name }) => [name, (db.prepare(`SELECT COUNT(*) AS n FROM ${name}`).get() as { n: number }).n]));
  } finally {
    db.close();
  }
}

/** `look` with a connection of the test's own, closed after (a live one writes the write-check key as a relay does). */
async function withConnection<T>(prefix: string, look: (connection: RedisConnection) => Promise<T>): Promise<T> {
  const connection = connectRedis({ url: redis.url, prefix, commandTimeoutMs: 2_000, connectTimeoutMs: 3_000 }, { log: { info() {}, warn() {}, error() {} } });
  try {
    await connection.waitReady(5_000);
    return await look(connection);
  } finally {
    await connection.close();
  }
}

const openStore = (dataDir: string) =>
  openEmbeddedStore({ dataDir, hashSecret: HASH_SECRET, retentionDays: 30, limiterMaxKeys: 1000, idempotency: { ttlSec: 86_400, maxKeys: 1000 } });

describe('npm run store -- move: refusals and --merge', () => {
  it('refuses a target that already holds records, either way round, and writes nothing', async () => {
    const first = tempDataDir();
    await seedEmbedded(first, { calls: 3, facts: 20, dueAt: Date.now() + 3_600_000 });
    const env = freshEnv(first);
    expect((await storeCommand(['move', 'embedded', 'redis'], env)).code).toBe(0);
    // The report read once there: each day read gets its index of opens beside its opens.
    await withConnection(env.REDIS_PREFIX!, (connection) => reportFigures(createRedisReportStore({ connection })));
    const held = await contents(env.REDIS_PREFIX!);

    const second = tempDataDir();
    await seedEmbedded(second, { calls: 2, facts: 5, dueAt: Date.now() + 3_600_000 });
    const refused = await storeCommand(['move', 'embedded', 'redis'], { ...env, DATA_DIR: second });
    expect(refused.code).toBe(1);
    expect(refused.err).toContain('the target already holds data (calls: 4, outbox: 4, consent: 3, never-call: 2, call-back-numbers: 1, report-leads: 20, report-opens: 10,');
    expect(refused.err).toContain('nothing was written');
    expect(refused.err).toContain('--merge');
    expect(refused.out).toBe('');
    expect(await contents(env.REDIS_PREFIX!)).toEqual(held);

    // Back into a DATA_DIR that holds a store: refused, the file as it was.
    const before = rows(second);
    const back = await storeCommand(['move', 'redis', 'embedded'], { ...env, DATA_DIR: second });
    expect(back.code).toBe(1);
    expect(back.err).toContain('the target already holds data');
    expect(rows(second)).toEqual(before);
  }, 60_000);

  it("--merge: the moved records win over the target's own of the same id; the target's others stay", async () => {
    const dataDir = tempDataDir();
    const seeded = await seedEmbedded(dataDir, { calls: 3, facts: 10, dueAt: Date.now() + 3_600_000 });
    const env = freshEnv(dataDir);
    expect((await storeCommand(['move', 'embedded', 'redis'], env)).code).toBe(0);
    // Meanwhile the embedded store changed (say the relays ran on it again): a booking was
    // cancelled and a number listed; Redis holds a record of its own too.
    // cancelled, a number listed and a day's open counted again; Redis holds a record of its own
    // too, and its report was read (each day's index of opens made).
    const store = openStore(dataDir);
    expect(await store.jobs.cancel(seeded.callbackIds[0]!, null, Date.now())).toBe('cancelled');
    await store.neverCall.add('a'.repeat(64), Date.now());
    const [open] = await store.report.opens('2000-01-01', '2100-01-01');
    await store.report.countOpen(open!.day, open!, 'add');
    const figures = await reportFigures(store.report);
    await store.close();
    await withConnection(env.REDIS_PREFIX!, async (connection) => {
      await connection.client.hSet(`${connection.keyspace('nevercall')}numbers`, 'b'.repeat(64), String(Date.now()));
      expect(await reportFigures(createRedisReportStore({ connection }))).not.toEqual(figures);
    });

    const merged = await storeCommand(['move', 'embedded', 'redis', '--merge'], env);
    expect(merged.code, merged.err).toBe(0);
    const summary = JSON.parse(merged.out) as Record<string, { moved: number; added: number; replaced: number; after: number }>;
    expect(summary.calls).toMatchObject({ moved: 4, added: 0, replaced: 4, after: 4 });
    expect(summary['never-call']).toMatchObject({ moved: 3, added: 1, replaced: 2, after: 4 });
    const jobs = `${env.REDIS_PREFIX}{${env.REDIS_PREFIX}jobs}:`;
    const check = await redisContents([redis.url], jobs);
    const cancelled = check.find((line) => line.startsWith(`${jobs}job:${seeded.callbackIds[0]} `))!;
    expect(JSON.parse(cancelled.slice(cancelled.indexOf(' ') + 1))).toMatchObject({ state: 'cancelled', stage: 'cancelled' });
    expect(check.find((line) => line.startsWith(`${jobs}pending `))).not.toContain(seeded.callbackIds[0]);
    // The report answers the moved counts, its day's index of opens kept with them.
    expect(summary['report-opens']).toMatchObject({ replaced: summary['report-opens']!.moved });
    expect(await withConnection(env.REDIS_PREFIX!, (connection) => reportFigures(createRedisReportStore({ connection })))).toEqual(figures);
  }, 60_000);

  it('refuses while a relay runs on either store, and a HASH_SECRET the hashes were not made with', async () => {
    const dataDir = tempDataDir();
    await seedEmbedded(dataDir, { calls: 2, facts: 5, dueAt: Date.now() + 3_600_000 });
    const env = freshEnv(dataDir);

    const wrong = await storeCommand(['move', 'embedded', 'redis'], { ...env, HASH_SECRET: 'another-secret-0123456789abcdef' });
    expect(wrong).toMatchObject({ code: 1, err: expect.stringContaining('HASH_SECRET is not the secret the stored hashes were made with') });
    expect(await contents(env.REDIS_PREFIX!)).toEqual([]);

    // Another process (a relay) holding the store open.
    const holder = spawn(
      process.execPath,
      [
        '-e',
        `const {DatabaseSync}=require('node:sqlite');const d=new DatabaseSync(${JSON.stringify(join(dataDir, 'dialback.sqlite'))});d.prepare('select 1').get();console.log('open');setInterval(()=>{},1000)`,
      ],
      { stdio: ['ignore', 'pipe', 'inherit'] },
    );
    cleanup.push(() => void holder.kill('SIGKILL'));
    await new Promise<void>((resolve) => holder.stdout.once('data', () => resolve()));
    expect(await storeCommand(['move', 'embedded', 'redis'], env)).toMatchObject({ code: 1, err: expect.stringContaining('stop every relay') });
    holder.kill('SIGKILL');

    // A relay on the Redis deployment.
    const sim = (await startSimulator({ port: 0, host: '127.0.0.1' })) as Simulator & { url: string; close(): Promise<void> };
    cleanup.push(() => sim.close());
    const relay = await startRelay({ ...relayEnv(sim, env), ...env, DATA_DIR: tempDataDir() });
    cleanup.push(() => relay.kill());
    // Running on Redis means its write check written: a relay listening but not yet connected is
    // one no watcher of the key can see (under load it once was, and the move went ahead).
    await untilReady(relay, 'the relay ready on Redis');
    const running = await storeCommand(['move', 'embedded', 'redis'], env);
    expect(running).toMatchObject({ code: 1, err: expect.stringContaining(`a relay is running on this Redis (REDIS_PREFIX ${env.REDIS_PREFIX})`) });
    await relay.kill('SIGTERM');
    // Stopped: the move goes ahead (after a look at whether the write check is still written).
    expect((await storeCommand(['move', 'embedded', 'redis'], env)).code).toBe(0);
  }, 90_000);

  it('usage mistakes exit 2 with the usage', async () => {
    const env = freshEnv(tempDataDir());
    for (const args of [
      ['move', 'embedded', 'embedded'],
      ['move', 'redis'],
      ['move', 'embedded', 'redis', '--force'],
      ['move', 'sqlite', 'redis'],
    ]) {
      expect(await storeCommand(args, env)).toMatchObject({ code: 2, err: expect.stringContaining('move embedded redis [--merge]') });
    }
    const { REDIS_URL: _url, ...embeddedOnly } = env;
    expect(await storeCommand(['move', 'embedded', 'redis'], embeddedOnly)).toMatchObject({ code: 2, err: expect.stringContaining('REDIS_URL (or REDIS_SENTINELS) is not set') });
  });
});
