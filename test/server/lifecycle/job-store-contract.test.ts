// The same callback-job cases against the memory, the SQLite and the Redis store (leases, exclusivity, crash
// takeover, one booked call per number, cancel with its token, a stage changed only by its holder
// from the stage it expects), then the SQLite store across a reopen and a SIGKILL in the middle of
// placing a call.
import { describe, expect, it } from 'vitest';
import { NO_PROGRESS, type CallbackJobStore, type JobProgress } from '../../../server/src/callback/job-store.ts';
import { createMemoryCallbackJobStore } from '../../../server/src/callback/stores/memory-job-store.ts';
import { openDatabase } from '../../../server/src/storage/sqlite/database.ts';
import { createSqliteCallbackJobStore } from '../../../server/src/callback/stores/sqlite-job-store.ts';
import { createRedisCallbackJobStore } from '../../../server/src/callback/stores/redis-job-store.ts';
import { redisForTests } from '../../support/redis-test-connection.ts';
import { crashJobs, jobFor, T0 } from '../../support/store-scenarios.ts';
import { runAndKill, tempDataDir } from '../../support/crash.ts';

const LEASE = 30_000;
const ended = { stage: 'ended', outcome: 'placed' } as const;
const redis = redisForTests();
// The same cases on a real 3-primary Redis Cluster (REDIS_CLUSTER=true): every script in one slot.
const redisCluster = redisForTests({ cluster: true });
const factories: [string, () => CallbackJobStore][] = [
  ['memory', () => createMemoryCallbackJobStore()],
  ['sqlite', () => createSqliteCallbackJobStore({ db: openDatabase({ dataDir: tempDataDir() }) })],
  ['redis', () => createRedisCallbackJobStore({ connection: redis.fresh(), retentionDays: 30 })],
  ['redis-cluster', () => createRedisCallbackJobStore({ connection: redisCluster.fresh(), retentionDays: 30 })],
];

describe.each(factories)('callback job store contract: %s', (_name, make) => {
  it('keeps a job with everything needed to place the call later', async () => {
    const store = make();
    const job = jobFor('cb-1', '1', T0 + 60_000);
    expect(await store.add(job, T0)).toEqual({ ok: true });
    const { cancelToken: _, ...rest } = job;
    expect(await store.get('cb-1')).toEqual({
      ...rest,
      state: 'pending',
      cancellable: true,
      attempts: 0,
      leaseOwner: null,
      leaseExpiresAt: null,
      interrupted: false,
      outcome: null,
      createdAt: T0,
      updatedAt: T0,
    });
    expect(await store.get('nope')).toBeUndefined();
    expect(await store.add(job, T0)).toEqual({ ok: false, reason: 'duplicate_callback_id' });
  });

  it('holds at most one pending scheduled call per number; queued and re-dials are not bound by it', async () => {
    const store = make();
    expect(await store.add(jobFor('cb-1', '1', T0 + 60_000), T0)).toEqual({ ok: true });
    expect(await store.add(jobFor('cb-2', '1', T0 + 90_000), T0)).toEqual({ ok: false, reason: 'number_already_scheduled' });
    expect(await store.add(jobFor('cb-3', '1', T0, 'queued'), T0)).toEqual({ ok: true });
    expect(await store.cancel('cb-1', 'token-cb-1', T0)).toBe('cancelled');
    expect(await store.add(jobFor('cb-2', '1', T0 + 90_000), T0)).toEqual({ ok: true });
  });

  it('claims only due jobs, earliest first, each for one owner until its lease expires', async () => {
    const store = make();
    await store.add(jobFor('late', '1', T0 + 5000), T0);
    await store.add(jobFor('early', '2', T0 + 1000, 'queued'), T0);
    await store.add(jobFor('future', '3', T0 + 60_000), T0);
    expect(await store.claimDue('a', T0, LEASE, 10)).toEqual([]);
    const claimed = await store.claimDue('a', T0 + 5000, LEASE, 10);
    expect(claimed.map((j) => [j.callbackId, j.leaseOwner, j.leaseExpiresAt, j.attempts, j.interrupted])).toEqual([
      ['early', 'a', T0 + 5000 + LEASE, 1, false],
      ['late', 'a', T0 + 5000 + LEASE, 1, false],
    ]);
    expect(await store.claimDue('b', T0 + 6000, LEASE, 10)).toEqual([]);
    expect(await store.advance('early', 'a', 'queued', ended, T0 + 7000)).toBe(true);
    expect(await store.advance('late', 'a', 'scheduled', ended, T0 + 7000)).toBe(true);
    expect((await store.claimDue('b', T0 + 60_000, LEASE, 10)).map((j) => j.callbackId)).toEqual(['future']);
  });

  it('renews a held lease; a job whose owner died is claimable after expiry, flagged interrupted', async () => {
    const store = make();
    await store.add(jobFor('cb', '1', T0), T0);
    await store.claimDue('a', T0, LEASE, 1);
    expect(await store.renew('cb', 'a', T0 + 20_000, LEASE)).toBe(true);
    expect(await store.renew('cb', 'b', T0 + 20_000, LEASE)).toBe(false);
    // The renewal moved the expiry: not claimable at the first lease's end.
    expect(await store.claimDue('b', T0 + LEASE, LEASE, 1)).toEqual([]);
    // Owner a dies: no renewal. After expiry, b takes over and knows a's attempt is unaccounted for.
    const [taken] = await store.claimDue('b', T0 + 20_000 + LEASE, LEASE, 1);
    expect(taken).toMatchObject({ callbackId: 'cb', leaseOwner: 'b', attempts: 2, interrupted: true });
    // a, back from the dead, holds nothing any more.
    expect(await store.renew('cb', 'a', T0 + 20_000 + LEASE, LEASE)).toBe(false);
    expect(await store.advance('cb', 'a', 'scheduled', ended, T0 + 20_000 + LEASE)).toBe(false);
    expect(await store.advance('cb', 'b', 'scheduled', ended, T0 + 20_000 + LEASE)).toBe(true);
    expect(await store.get('cb')).toMatchObject({ stage: 'ended', state: 'completed', outcome: 'placed', leaseOwner: null });
    expect(await store.renew('cb', 'b', T0 + 20_001 + LEASE, LEASE)).toBe(false);
  });

  it('fails a job for good, and moves one to wait again (backoff, re-dial) releasing its lease', async () => {
    const store = make();
    await store.add(jobFor('q', '1', T0, 'queued'), T0);
    await store.add(jobFor('f', '2', T0, 'queued'), T0);
    await store.claimDue('a', T0, LEASE, 10);
    expect(await store.advance('f', 'a', 'queued', { stage: 'failed', outcome: 'upstream_rejected' }, T0 + 1)).toBe(true);
    expect(await store.get('f')).toMatchObject({ stage: 'failed', state: 'failed', outcome: 'upstream_rejected' });
    const redial = { stage: 'redial' as const, dueAt: T0 + 300_000, progress: { ...NO_PROGRESS, redials: 1 } };
    expect(await store.advance('q', 'b', 'queued', redial, T0 + 1)).toBe(false);
    // The stage it expects to leave decides too: a step read from a stale job writes nothing.
    expect(await store.advance('q', 'a', 'scheduled', redial, T0 + 1)).toBe(false);
    expect(await store.advance('q', 'a', 'queued', redial, T0 + 1)).toBe(true);
    expect(await store.get('q')).toMatchObject({ state: 'pending', stage: 'redial', dueAt: T0 + 300_000, leaseOwner: null, attempts: 1, progress: { redials: 1 } });
    expect(await store.claimDue('b', T0 + 299_999, LEASE, 10)).toEqual([]);
    const [again] = await store.claimDue('b', T0 + 300_000, LEASE, 10);
    expect(again).toMatchObject({ callbackId: 'q', attempts: 2, interrupted: false });
    expect(await store.advance('f', 'a', 'failed', { stage: 'failed', outcome: 'again' }, T0 + 2)).toBe(false);
  });

  it('keeps what a job remembers, as typed fields: given with the job, replaced by each step', async () => {
    const store = make();
    const remembered: JobProgress = {
      scheduledFor: T0 - 5000,
      queuedAt: T0 - 4000,
      unreachableTries: 3,
      lastAttemptAt: T0 - 3000,
      retriedUnknown: true,
      redials: 2,
      dueSince: T0 - 2000,
    };
    await store.add({ ...jobFor('cb', '1', T0, 'redial'), progress: remembered }, T0);
    await store.add(jobFor('plain', '2', T0, 'queued'), T0);
    expect((await store.get('cb'))?.progress).toEqual(remembered);
    expect((await store.get('plain'))?.progress).toEqual({ ...NO_PROGRESS, queuedAt: T0 });
    await store.claimDue('a', T0, LEASE, 10);
    const following: JobProgress = { ...NO_PROGRESS, lastAttemptAt: T0 + 500, redials: 2 };
    expect(await store.advance('cb', 'a', 'redial', { stage: 'following', dueAt: T0 + 1000, progress: following }, T0)).toBe(true);
    const [taken] = await store.claimDue('a', T0 + 1000, LEASE, 1);
    expect(taken).toMatchObject({ callbackId: 'cb', stage: 'following', progress: following });
    expect(await store.advance('cb', 'a', 'following', { stage: 'missed', outcome: 'missed' }, T0 + 1000)).toBe(true);
    expect(await store.get('cb')).toMatchObject({ stage: 'missed', state: 'completed', outcome: 'missed', progress: following });
  });

  it('a booking moved into another stage frees its number; moved back, it is bound again', async () => {
    const store = make();
    await store.add(jobFor('b1', '1', T0), T0);
    await store.claimDue('a', T0, LEASE, 1);
    expect(await store.advance('b1', 'a', 'scheduled', { stage: 'queued', dueAt: T0 + 1000, progress: { ...NO_PROGRESS, queuedAt: T0 } }, T0)).toBe(true);
    expect(await store.add(jobFor('b2', '1', T0 + 60_000), T0)).toEqual({ ok: true });
  });

  it('a call placed at once has no cancel token: only the owner may stop its re-dial, and nobody its following', async () => {
    const store = make();
    await store.add({ ...jobFor('now', '1', T0, 'following'), requestedAs: 'now', cancelToken: null, progress: { ...NO_PROGRESS, lastAttemptAt: T0 } }, T0);
    expect(await store.get('now')).toMatchObject({ cancellable: false, requestedAs: 'now' });
    expect(await store.cancel('now', 'token-now', T0)).toBe('wrong_token');
    expect(await store.cancel('now', null, T0)).toBe('placed');
    await store.claimDue('a', T0, LEASE, 1);
    expect(await store.advance('now', 'a', 'following', { stage: 'redial', dueAt: T0 + 1000, progress: { ...NO_PROGRESS, redials: 1 } }, T0)).toBe(true);
    expect(await store.cancel('now', null, T0 + 1)).toBe('cancelled');
    expect(await store.get('now')).toMatchObject({ stage: 'cancelled', state: 'cancelled' });
  });

  it('cancels a pending job only with its token, and not while it is being placed', async () => {
    const store = make();
    await store.add(jobFor('cb', '1', T0), T0);
    expect(await store.cancel('nope', 'token-cb', T0)).toBe('not_found');
    expect(await store.cancel('cb', 'token-other', T0)).toBe('wrong_token');
    await store.claimDue('a', T0, LEASE, 1);
    expect(await store.cancel('cb', 'token-cb', T0 + 1)).toBe('in_progress');
    await store.advance('cb', 'a', 'scheduled', { stage: 'scheduled', dueAt: T0 + 60_000, progress: { ...NO_PROGRESS, scheduledFor: T0 } }, T0 + 2);
    expect(await store.cancel('cb', 'token-cb', T0 + 3)).toBe('cancelled');
    expect(await store.cancel('cb', 'token-cb', T0 + 4)).toBe('not_pending');
    expect(await store.claimDue('a', T0 + 60_000, LEASE, 1)).toEqual([]);
  });

  it('lists pending jobs by due time for the owner view', async () => {
    const store = make();
    await store.add(jobFor('c', '3', T0 + 3000), T0);
    await store.add(jobFor('a', '1', T0 + 1000), T0);
    await store.add(jobFor('b', '2', T0 + 2000), T0);
    await store.cancel('b', 'token-b', T0);
    expect((await store.listPending(10)).map((j) => j.callbackId)).toEqual(['a', 'c']);
    expect((await store.listPending(1)).map((j) => j.callbackId)).toEqual(['a']);
  });

  it('the owner cancels without a token, but not while the job is being placed', async () => {
    const store = make();
    await store.add(jobFor('o', '1', T0), T0);
    await store.add(jobFor('p', '2', T0), T0);
    await store.claimDue('a', T0, LEASE, 1);
    expect(await store.cancel('o', null, T0 + 1)).toBe('in_progress');
    expect(await store.cancel('p', null, T0 + 1)).toBe('cancelled');
    expect(await store.get('p')).toMatchObject({ state: 'cancelled' });
  });

  it('lists failed jobs since a time, newest first, for the owner to call back by hand', async () => {
    const store = make();
    for (const [id, n] of [
      ['x', '1'],
      ['y', '2'],
      ['z', '3'],
    ] as const)
      await store.add(jobFor(id, n, T0, 'queued'), T0);
    await store.claimDue('a', T0, LEASE, 10);
    await store.advance('x', 'a', 'queued', { stage: 'failed', outcome: 'upstream_rejected' }, T0 + 1_000);
    await store.advance('y', 'a', 'queued', { stage: 'failed', outcome: 'queue_expired' }, T0 + 2_000);
    expect((await store.listFailed(T0, 10)).map((j) => [j.callbackId, j.outcome])).toEqual([
      ['y', 'queue_expired'],
      ['x', 'upstream_rejected'],
    ]);
    expect((await store.listFailed(T0 + 1_500, 10)).map((j) => j.callbackId)).toEqual(['y']);
    expect((await store.listFailed(T0, 1)).map((j) => j.callbackId)).toEqual(['y']);
  });
});

describe('sqlite callback jobs across restarts', () => {
  it('keeps every job after a reopen', async () => {
    const dir = tempDataDir();
    const db = openDatabase({ dataDir: dir });
    const a = createSqliteCallbackJobStore({ db });
    await a.add(jobFor('cb', '1', T0 + 1000), T0);
    db.close();
    const b = createSqliteCallbackJobStore({ db: openDatabase({ dataDir: dir }) });
    expect((await b.claimDue('b', T0 + 1000, LEASE, 1)).map((j) => j.request.e164)).toEqual(['+380500000001']);
  });

  it('after SIGKILL mid-call: the held job waits out its lease, then is taken over flagged interrupted', async () => {
    const dir = tempDataDir();
    await runAndKill('jobs', dir);
    const store = createSqliteCallbackJobStore({ db: openDatabase({ dataDir: dir }) });
    expect((await store.listPending(10)).map((j) => j.callbackId)).toEqual(['cb-placing', 'cb-waiting']);
    expect(await store.claimDue('relay-b', T0 + crashJobs.leaseMs - 1, LEASE, 10)).toEqual([]);
    const [taken] = await store.claimDue('relay-b', T0 + crashJobs.leaseMs, LEASE, 10);
    expect(taken).toMatchObject({ callbackId: 'cb-placing', interrupted: true, attempts: 2, leaseOwner: 'relay-b' });
    expect(await store.get('cb-waiting')).toMatchObject({ state: 'pending', attempts: 0 });
  });
});
