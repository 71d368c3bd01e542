// The same Idempotency-Key cases against the memory, the SQLite and the Redis store, then the SQLite store
// across a reopen and a SIGKILL: a finished key replays, a running one stays in progress.
import { describe, expect, it } from 'vitest';
import { RelayError } from '../../../server/src/contract/errors.ts';
import type { IdempotencyStore, IdempotencyStoreOptions } from '../../../server/src/idempotency/idempotency-store.ts';
import { createMemoryIdempotencyStore } from '../../../server/src/idempotency/memory-store.ts';
import { openDatabase } from '../../../server/src/storage/sqlite/database.ts';
import { createSqliteIdempotencyStore } from '../../../server/src/idempotency/sqlite-store.ts';
import { createRedisIdempotencyStore } from '../../../server/src/idempotency/redis-store.ts';
import { redisForTests } from '../../support/redis-test-connection.ts';
import { crashIdempotency, T0 } from '../../support/store-scenarios.ts';
import { runAndKill, tempDataDir } from '../../support/crash.ts';

const S = 'https://shop.example';
const accepted = { status: 202, body: { status: 'accepted', requestId: 'r-1' }, headers: { 'x-request-id': 'r-1', 'retry-after': 3 } };

async function codeOf(p: Promise<unknown>): Promise<string> {
  try {
    await p;
  } catch (err) {
    if (err instanceof RelayError) return `${err.code} ${err.status}`;
    throw err;
  }
  return 'no error';
}

type Factory = (options: IdempotencyStoreOptions) => IdempotencyStore;
const redis = redisForTests();
// The same cases on a real 3-primary Redis Cluster (REDIS_CLUSTER=true): every script in one slot.
const redisCluster = redisForTests({ cluster: true });
const factories: [string, Factory][] = [
  ['memory', (o) => createMemoryIdempotencyStore(o)],
  ['sqlite', (o) => createSqliteIdempotencyStore({ ...o, hashSecret: 'a-test-hash-secret-0123456789', db: openDatabase({ dataDir: tempDataDir() }) })],
  ['redis', (o) => createRedisIdempotencyStore({ ...o, hashSecret: 'a-test-hash-secret-0123456789', connection: redis.fresh() })],
  ['redis-cluster', (o) => createRedisIdempotencyStore({ ...o, hashSecret: 'a-test-hash-secret-0123456789', connection: redisCluster.fresh() })],
];

describe.each(factories)('idempotency store contract: %s', (_name, make) => {
  function clocked(options: Partial<IdempotencyStoreOptions> = {}) {
    const clock = { t: T0 };
    const store = make({ ttlSec: 600, maxKeys: 100, now: () => clock.t, ...options });
    return { clock, store };
  }

  it('replays the first answer to a repeated key, marked as replayed, with its headers as strings', async () => {
    const { store } = clocked();
    const first = await store.begin(S, 'k', 'fp');
    if (first.kind !== 'new') throw new Error('new key');
    expect(await store.has(S, 'k')).toBe(true);
    await first.ticket.complete(accepted);
    const again = await store.begin(S, 'k', 'fp');
    expect(again).toEqual({ kind: 'replay', reply: { status: 202, body: accepted.body, headers: { 'x-request-id': 'r-1', 'retry-after': '3', 'idempotent-replayed': 'true' } } });
    expect(await store.size()).toBe(1);
  });

  it('refuses a key reused for another request (422) and a repeat while the first runs (409)', async () => {
    const { store } = clocked();
    await store.begin(S, 'k', 'fp');
    expect(await codeOf(store.begin(S, 'k', 'fp'))).toBe('idempotency_in_progress 409');
    expect(await codeOf(store.begin(S, 'k', 'other'))).toBe('idempotency_key_reused 422');
    // Keys are per site.
    expect((await store.begin('https://other.example', 'k', 'other')).kind).toBe('new');
  });

  it('forgets an abandoned key, and a settled ticket cannot change its answer', async () => {
    const { store } = clocked();
    const first = await store.begin(S, 'k', 'fp');
    if (first.kind !== 'new') throw new Error('new key');
    await first.ticket.abandon();
    await first.ticket.complete(accepted);
    expect(await store.has(S, 'k')).toBe(false);
    expect((await store.begin(S, 'k', 'fp')).kind).toBe('new');
  });

  it('expires entries after the TTL', async () => {
    const { clock, store } = clocked({ ttlSec: 600 });
    const first = await store.begin(S, 'k', 'fp');
    if (first.kind !== 'new') throw new Error('new key');
    await first.ticket.complete(accepted);
    clock.t += 599_999;
    expect((await store.begin(S, 'k', 'fp')).kind).toBe('replay');
    clock.t += 1;
    expect(await store.has(S, 'k')).toBe(false);
    expect((await store.begin(S, 'k', 'other')).kind).toBe('new');
  });

  it('makes room by evicting the oldest finished keys; all running: refused', async () => {
    const { clock, store } = clocked({ maxKeys: 100 });
    for (let i = 0; i < 100; i++) {
      clock.t += 1;
      const b = await store.begin(S, `k${i}`, 'fp');
      if (b.kind === 'new' && i < 50) await b.ticket.complete(accepted);
    }
    expect((await store.begin(S, 'one more', 'fp')).kind).toBe('new');
    expect(await store.has(S, 'k0')).toBe(false);
    expect(await store.has(S, 'k49')).toBe(true);
    expect(await store.has(S, 'k99')).toBe(true);

    const full = clocked({ maxKeys: 100 });
    for (let i = 0; i < 100; i++) await full.store.begin(S, `k${i}`, 'fp');
    expect(await codeOf(full.store.begin(S, 'one more', 'fp'))).toBe('temporarily_unavailable 503');
  });
});

describe('sqlite idempotency store across restarts', () => {
  const options = { ttlSec: crashIdempotency.ttlSec, maxKeys: crashIdempotency.maxKeys, hashSecret: crashIdempotency.hashSecret, now: () => T0 + 1000 };

  it('replays a finished key after a reopen', async () => {
    const dir = tempDataDir();
    const db = openDatabase({ dataDir: dir });
    const a = createSqliteIdempotencyStore({ ...options, db });
    const first = await a.begin(S, 'k', 'fp');
    if (first.kind !== 'new') throw new Error('new key');
    await first.ticket.complete(accepted);
    db.close();
    const b = createSqliteIdempotencyStore({ ...options, db: openDatabase({ dataDir: dir }) });
    expect(await b.begin(S, 'k', 'fp')).toMatchObject({ kind: 'replay', reply: { status: 202, body: accepted.body } });
    expect(await b.size()).toBe(1);
  });

  it('keeps only a keyed hash of the request fingerprint (a plain hash of a number-only body can be reversed)', async () => {
    const db = openDatabase({ dataDir: tempDataDir() });
    const store = createSqliteIdempotencyStore({ ...options, db });
    await store.begin(S, 'k', 'plain-sha256-of-the-body');
    const stored = db
      .prepare('SELECT fingerprint FROM idempotency')
      .all()
      .map((r) => r.fingerprint);
    expect(stored).toHaveLength(1);
    expect(stored[0]).not.toContain('plain-sha256');
    // The same secret gives the same hash: a repeat still matches after a restart.
    expect(await codeOf(createSqliteIdempotencyStore({ ...options, db }).begin(S, 'k', 'plain-sha256-of-the-body'))).toBe('idempotency_in_progress 409');
    expect(await codeOf(createSqliteIdempotencyStore({ ...options, hashSecret: 'another-secret-0123456789', db }).begin(S, 'k', 'plain-sha256-of-the-body'))).toBe(
      'idempotency_key_reused 422',
    );
  });

  it('after SIGKILL: a completed key replays; a key that was running stays in progress until its TTL', async () => {
    const dir = tempDataDir();
    await runAndKill('idempotency', dir);
    const clock = { t: T0 + 1000 };
    const store = createSqliteIdempotencyStore({ ...options, now: () => clock.t, db: openDatabase({ dataDir: dir }) });
    expect(await store.begin(crashIdempotency.scope, 'key-done', 'fp-done')).toEqual({
      kind: 'replay',
      reply: { status: 202, body: { status: 'accepted', requestId: 'r-1' }, headers: { 'x-request-id': 'r-1', 'idempotent-replayed': 'true' } },
    });
    expect(await codeOf(store.begin(crashIdempotency.scope, 'key-running', 'fp-running'))).toBe('idempotency_in_progress 409');
    clock.t = T0 + crashIdempotency.ttlSec * 1000;
    expect((await store.begin(crashIdempotency.scope, 'key-running', 'fp-running')).kind).toBe('new');
  });
});
