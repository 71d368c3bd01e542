// The SQLite limit store across restarts: a closed and reopened file, and a process killed with
// SIGKILL right after its calls returned, both come back with every limit as it was.
import { describe, expect, it } from 'vitest';
import { createHash } from 'node:crypto';
import type { LimitCheck } from '../../../server/src/limits/limit-store.ts';
import { openDatabase } from '../../../server/src/storage/sqlite/database.ts';
import { createSqliteLimitStore } from '../../../server/src/limits/sqlite/limit-store.ts';
import { crashChecks, T0 } from '../../support/store-scenarios.ts';
import { runAndKill, sec, tempDataDir } from '../../support/crash.ts';
import { createManualTimers, type ManualTimers } from '../../support/manual-timers.ts';

const hex = (s: string) => createHash('sha256').update(s).digest('hex');
const numberCheck = (n: string): LimitCheck => ({
  table: 'number',
  key: hex(n),
  counts: [
    { reason: 'number_cooldown', limit: 1, windowSec: 120 },
    { reason: 'number_daily', limit: 3, windowSec: 86_400 },
  ],
});
const site: LimitCheck = { table: 'site', key: hex('site'), counts: [{ reason: 'site_hourly_cap', limit: 10, windowSec: 3600 }] };
const numbers = (n: string): LimitCheck => ({ table: 'client_numbers', key: hex('client'), distinct: { reason: 'client_numbers', limit: 2, windowSec: 86_400, member: hex(n) } });
const strikes: LimitCheck = { table: 'client_refusals', key: hex('client'), counts: [{ reason: 'client_refusals', limit: 2, windowSec: 600 }] };

function open(dataDir: string, startedAt = T0, clock?: ManualTimers) {
  const db = openDatabase({ dataDir });
  return {
    db,
    store: createSqliteLimitStore({
      db,
      maxKeysPerTable: 1000,
      batchedTables: ['client_refusals'],
      batchDelayMs: 100,
      now: () => startedAt,
      ...(clock && { timers: clock.timers }),
    }),
  };
}

describe('sqlite limit store across restarts', () => {
  it('answers after a reopen exactly as before it: logs, counters, distinct members, slots', async () => {
    const dir = tempDataDir();
    const a = open(dir);
    expect((await a.store.consume([numberCheck('a'), site, numbers('a')], sec(0))).ok).toBe(true);
    for (let i = 1; i < 10; i++) expect((await a.store.consume([site], sec(i))).ok).toBe(true);
    expect((await a.store.consume([numbers('b')], sec(10))).ok).toBe(true);
    expect(await a.store.acquire('slot', 1, 60_000, sec(10))).toBe(true);
    const before = [await a.store.peek(numberCheck('a'), sec(20)), await a.store.peek(site, sec(20)), await a.store.consume([numbers('c')], sec(20))];
    a.store.close();
    a.db.close();

    // Started a day later in wall time: the origin of the store's clock is the file's, not the process's.
    const b = open(dir, T0 + 86_400_000);
    expect([await b.store.peek(numberCheck('a'), sec(20)), await b.store.peek(site, sec(20)), await b.store.consume([numbers('c')], sec(20))]).toEqual(before);
    expect(before[0]).toEqual([{ reason: 'number_cooldown', retryAfter: 100 }]);
    expect(before[1]).toHaveLength(1);
    expect(await b.store.acquire('slot', 1, 60_000, sec(20))).toBe(false);
    expect(await b.store.acquire('slot', 1, 60_000, sec(71))).toBe(true);
    expect((await b.store.consume([numberCheck('a')], sec(120))).ok).toBe(true);
  });

  it('forgets a refunded request for good, after a reopen too', async () => {
    const dir = tempDataDir();
    const a = open(dir);
    const first = await a.store.consume([numberCheck('a')], sec(0));
    if (!first.ok) throw new Error('admitted');
    await a.store.refund(first.receipt);
    a.store.close();
    a.db.close();
    const b = open(dir);
    expect((await b.store.consume([numberCheck('a')], sec(1))).ok).toBe(true);
    expect((await b.store.consume([numberCheck('a')], sec(2))).ok).toBe(false);
  });

  it('writes an accepted request before consume returns, and strikes in one go within batchDelayMs, or with the next accepted request', async () => {
    const dir = tempDataDir();
    const clock = createManualTimers();
    const { db, store } = open(dir, T0, clock);
    const count = () => (db.prepare('SELECT COUNT(*) AS n FROM limit_events').get() as { n: number }).n;
    await store.consume([numberCheck('a')], sec(0));
    expect(count()).toBe(1);
    await store.consume([strikes], sec(1));
    // A later turn: nothing waits for a strike, so it is not committed at the turn's end.
    await new Promise((resolve) => setImmediate(resolve));
    expect(count()).toBe(1);
    // An accepted request's commit takes the strike along.
    await store.consume([numberCheck('b')], sec(1));
    expect(count()).toBe(3);
    await store.consume([strikes], sec(2));
    clock.advance(99);
    expect(count()).toBe(3);
    clock.advance(1);
    expect(count()).toBe(4);
    // The strikes count after a reopen: the client is refused up front.
    store.close();
    db.close();
    const b = open(dir);
    expect((await b.store.peek(strikes, sec(3))).map((r) => r.reason)).toEqual(['client_refusals']);
  });

  it('prunes events that can no longer change an answer, and only those', async () => {
    const dir = tempDataDir();
    const { db, store } = open(dir);
    const count = () => (db.prepare('SELECT COUNT(*) AS n FROM limit_events').get() as { n: number }).n;
    await store.consume([numberCheck('old')], sec(0));
    await store.consume([numbers('a')], sec(0));
    await store.consume([numbers('b')], sec(86_000));
    await store.consume([numberCheck('new')], sec(100_000));
    // Two days after: the number table's 'old' event is past 2 × its longest window; the client's
    // members are kept while its newest member is younger than that.
    expect(store.prune(sec(2 * 86_400 + 1))).toBe(1);
    expect(count()).toBe(3);
    expect(store.prune(sec(86_000 + 2 * 86_400 + 1))).toBe(2);
    expect(count()).toBe(1);
  });

  it('keeps every limit of a process killed with SIGKILL right after its calls returned', async () => {
    const dir = tempDataDir();
    await runAndKill('limits', dir);
    const { store } = open(dir);
    expect(await store.peek(crashChecks.number, T0 + 2000)).toEqual([{ reason: 'number_cooldown', retryAfter: 118 }]);
    expect((await store.peek(crashChecks.client, T0 + 2000)).map((r) => r.reason)).toEqual(['client_rate']);
    expect(await store.acquire(crashChecks.inFlightKey, 1, 60_000, T0 + 2000)).toBe(false);
  });
});
