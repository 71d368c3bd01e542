// The same callback-job cases against the memory, the SQLite and the Redis store (leases, exclusivity, crash
// takeover, one scheduled call per number, cancel with its token, reschedule), then the SQLite store
// across a reopen and a SIGKILL in the middle of placing a call.
import { describe, expect, it } from 'vitest';
import type { CallbackJobStore } from '../../../server/src/lifecycle/job-store.ts';
import { createMemoryCallbackJobStore } from '../../../server/src/lifecycle/memory-job-store.ts';
import { openDatabase } from '../../../server/src/storage/sqlite/database.ts';
import { createSqliteCallbackJobStore } from '../../../server/src/lifecycle/sqlite-job-store.ts';
import { createRedisCallbackJobStore } from '../../../server/src/lifecycle/redis-job-store.ts';
import { redisForTests } from '../../support/redis-test-connection.ts';
import { crashJobs, jobFor, T0 } from '../../support/store-scenarios.ts';
import { runAndKill, tempDataDir } from '../../support/crash.ts';

const LEASE = 30_000;
const redis = redisForTests();
const factories: [string, () => CallbackJobStore][] = [
  ['memory', () => createMemoryCallbackJobStore()],
  ['sqlite', () => createSqliteCallbackJobStore({ db: openDatabase({ dataDir: tempDataDir() }) })],
  ['redis', () => createRedisCallbackJobStore({ connection: redis.fresh(), retentionDays: 30 })],
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
      attempts: 0,
      leaseOwner: null,
      leaseExpiresAt: null,
      interrupted: false,
      outcome: null,
      notes: null,
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
    for (const id of ['early', 'late']) expect(await store.complete(id, 'a', 'placed', T0 + 7000)).toBe(true);
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
    expect(await store.complete('cb', 'a', 'placed', T0 + 20_000 + LEASE)).toBe(false);
    expect(await store.complete('cb', 'b', 'placed', T0 + 20_000 + LEASE)).toBe(true);
    expect(await store.get('cb')).toMatchObject({ state: 'completed', outcome: 'placed', leaseOwner: null });
    expect(await store.renew('cb', 'b', T0 + 20_001 + LEASE, LEASE)).toBe(false);
  });

  it('fails a job for good, and reschedules one (backoff, re-dial) releasing its lease', async () => {
    const store = make();
    await store.add(jobFor('q', '1', T0, 'queued'), T0);
    await store.add(jobFor('f', '2', T0, 'queued'), T0);
    await store.claimDue('a', T0, LEASE, 10);
    expect(await store.fail('f', 'a', 'upstream_rejected', T0 + 1)).toBe(true);
    expect(await store.get('f')).toMatchObject({ state: 'failed', outcome: 'upstream_rejected' });
    expect(await store.reschedule('q', 'b', T0 + 300_000, T0 + 1, 'redial')).toBe(false);
    expect(await store.reschedule('q', 'a', T0 + 300_000, T0 + 1, 'redial')).toBe(true);
    expect(await store.get('q')).toMatchObject({ state: 'pending', kind: 'redial', dueAt: T0 + 300_000, leaseOwner: null, attempts: 1 });
    expect(await store.claimDue('b', T0 + 299_999, LEASE, 10)).toEqual([]);
    const [again] = await store.claimDue('b', T0 + 300_000, LEASE, 10);
    expect(again).toMatchObject({ callbackId: 'q', attempts: 2, interrupted: false });
    expect(await store.fail('f', 'a', 'again', T0 + 2)).toBe(false);
  });

  it("keeps the placer's notes: given with the job, replaced by a reschedule that gives them, kept by one that does not", async () => {
    const store = make();
    await store.add({ ...jobFor('cb', '1', T0, 'redial'), notes: '{"redials":0}' }, T0);
    await store.add(jobFor('plain', '2', T0, 'queued'), T0);
    expect((await store.get('plain'))?.notes).toBeNull();
    await store.claimDue('a', T0, LEASE, 10);
    expect(await store.reschedule('cb', 'a', T0 + 1000, T0, undefined, '{"redials":1}')).toBe(true);
    expect(await store.reschedule('plain', 'a', T0 + 1000, T0, undefined, '{"queuedAt":1}')).toBe(true);
    expect((await store.get('cb'))?.notes).toBe('{"redials":1}');
    const [taken] = await store.claimDue('a', T0 + 1000, LEASE, 1);
    expect(taken).toMatchObject({ callbackId: 'cb', notes: '{"redials":1}' });
    expect(await store.reschedule('cb', 'a', T0 + 2000, T0 + 1000, 'redial')).toBe(true);
    expect((await store.get('cb'))?.notes).toBe('{"redials":1}');
    await store.claimDue('a', T0 + 2000, LEASE, 10);
    expect(await store.reschedule('cb', 'a', T0 + 3000, T0 + 2000, undefined, null)).toBe(true);
    expect((await store.get('cb'))?.notes).toBeNull();
    expect((await store.get('plain'))?.notes).toBe('{"queuedAt":1}');
  });

  it('cancels a pending job only with its token, and not while it is being placed', async () => {
    const store = make();
    await store.add(jobFor('cb', '1', T0), T0);
    expect(await store.cancel('nope', 'token-cb', T0)).toBe('not_found');
    expect(await store.cancel('cb', 'token-other', T0)).toBe('wrong_token');
    await store.claimDue('a', T0, LEASE, 1);
    expect(await store.cancel('cb', 'token-cb', T0 + 1)).toBe('in_progress');
    await store.reschedule('cb', 'a', T0 + 60_000, T0 + 2);
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
    await store.fail('x', 'a', 'upstream_rejected', T0 + 1_000);
    await store.fail('y', 'a', 'queue_expired', T0 + 2_000);
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
