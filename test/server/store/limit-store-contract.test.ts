// The same limit-store cases against the memory store and the SQLite store: the durable store must
// answer exactly as the memory store does (sliding logs, weighted counters, distinct members,
// all-or-nothing, peek, refunds, in-flight slots, failing closed at capacity).
import { describe, expect, it } from 'vitest';
import { createHash } from 'node:crypto';
import { createMemoryLimitStore } from '../../../server/src/protect/memory-limit-store.ts';
import type { LimitCheck, LimitStore } from '../../../server/src/protect/limit-store.ts';
import { openDatabase } from '../../../server/src/store/sqlite/database.ts';
import { createSqliteLimitStore } from '../../../server/src/store/sqlite/limit-store.ts';
import { T0, sec, tempDataDir } from './_support.ts';

const hex = (s: string) => createHash('sha256').update(s).digest('hex');

const numberCheck = (n: string): LimitCheck => ({
  table: 'number',
  key: hex(n),
  counts: [
    { reason: 'number_cooldown', limit: 1, windowSec: 120 },
    { reason: 'number_daily', limit: 3, windowSec: 86_400 },
  ],
});

type Factory = (maxKeysPerTable: number) => LimitStore;

const factories: [string, Factory][] = [
  ['memory', (maxKeysPerTable) => createMemoryLimitStore({ maxKeysPerTable, startMs: T0 })],
  ['sqlite', (maxKeysPerTable) => createSqliteLimitStore({ db: openDatabase({ dataDir: tempDataDir() }), maxKeysPerTable, now: () => T0 })],
];

describe.each(factories)('limit store contract: %s', (_name, make) => {
  it('keeps an exact cooldown and daily cap per key, with the wait until the next allowed request', async () => {
    const store = make(1000);
    expect((await store.consume([numberCheck('a')], sec(0))).ok).toBe(true);
    expect(await store.consume([numberCheck('a')], sec(100))).toEqual({ ok: false, refusals: [{ reason: 'number_cooldown', retryAfter: 20 }] });
    expect((await store.consume([numberCheck('b')], sec(100))).ok).toBe(true);
    expect((await store.consume([numberCheck('a')], sec(120))).ok).toBe(true);
    expect((await store.consume([numberCheck('a')], sec(240))).ok).toBe(true);
    expect(await store.consume([numberCheck('a')], sec(400))).toEqual({ ok: false, refusals: [{ reason: 'number_daily', retryAfter: 86_400 - 400 }] });
    expect((await store.consume([numberCheck('a')], sec(86_400))).ok).toBe(true);
  });

  it('refuses all or nothing: a refused plan counts against none of its keys', async () => {
    const store = make(1000);
    const client: LimitCheck = { table: 'client', key: hex('c'), counts: [{ reason: 'client_rate', limit: 2, windowSec: 600 }] };
    expect((await store.consume([numberCheck('a'), client], sec(0))).ok).toBe(true);
    expect((await store.consume([numberCheck('a'), client], sec(10))).ok).toBe(false);
    expect((await store.consume([numberCheck('b'), client], sec(20))).ok).toBe(true);
    const third = await store.consume([numberCheck('c'), client], sec(30));
    expect(third.ok === false && third.refusals.map((r) => r.reason)).toEqual(['client_rate']);
  });

  it('peek tells what one check would meet now, counting and creating nothing', async () => {
    const store = make(1000);
    const client: LimitCheck = { table: 'client', key: hex('p'), counts: [{ reason: 'client_rate', limit: 2, windowSec: 600 }, { reason: 'client_daily', limit: 20, windowSec: 86_400 }] };
    expect(await store.peek(client, sec(0))).toEqual([]);
    expect((await store.consume([{ ...client, key: hex('other') }], sec(0))).ok).toBe(true);
    for (let i = 0; i < 50; i++) expect(await store.peek(client, sec(1))).toEqual([]);
    expect(store.sizes().client).toBe(1);
    expect((await store.consume([client], sec(10))).ok).toBe(true);
    expect((await store.consume([client], sec(20))).ok).toBe(true);
    const blocked = await store.peek(client, sec(30));
    expect(blocked).toEqual([{ reason: 'client_rate', retryAfter: 580 }]);
    expect(await store.consume([client], sec(30))).toEqual({ ok: false, refusals: blocked });
    expect(await store.peek(client, sec(610))).toEqual([]);
    await expect(store.peek({ ...client, counts: [{ reason: 'client_rate', limit: 3, windowSec: 600 }] }, sec(0))).rejects.toThrow(/two different rule sets/);
  });

  it('counts large limits with a weighted two-window counter, honest about the wait', async () => {
    const store = make(1000);
    const site: LimitCheck = { table: 'site', key: hex('s'), counts: [{ reason: 'site_hourly_cap', limit: 10, windowSec: 3600 }] };
    for (let i = 0; i < 10; i++) expect((await store.consume([site], sec(i))).ok).toBe(true);
    const over = await store.consume([site], sec(20));
    if (over.ok) throw new Error('the eleventh request must be refused');
    expect(over.refusals[0]!.reason).toBe('site_hourly_cap');
    expect((await store.consume([site], sec(20 + over.refusals[0]!.retryAfter))).ok).toBe(true);
  });

  it('lets a client reach a few distinct numbers a day, repeating one of them freely', async () => {
    const store = make(1000);
    const numbers = (n: string): LimitCheck => ({ table: 'client_numbers', key: hex('client'), distinct: { reason: 'client_numbers', limit: 2, windowSec: 86_400, member: hex(n) } });
    expect((await store.consume([numbers('a')], sec(0))).ok).toBe(true);
    expect((await store.consume([numbers('b')], sec(1))).ok).toBe(true);
    expect((await store.consume([numbers('a')], sec(2))).ok).toBe(true);
    expect(await store.consume([numbers('c')], sec(3))).toEqual({ ok: false, refusals: [{ reason: 'client_numbers', retryAfter: 86_400 - 3 }] });
    expect((await store.consume([numbers('c')], sec(86_401))).ok).toBe(true);
  });

  it('gives back what a refunded request counted, and only that', async () => {
    const store = make(1000);
    const site: LimitCheck = { table: 'site', key: hex('s'), counts: [{ reason: 'site_hourly_cap', limit: 10, windowSec: 3600 }] };
    for (let i = 0; i < 9; i++) expect((await store.consume([site], sec(i))).ok).toBe(true);
    const tenth = await store.consume([numberCheck('a'), site], sec(9));
    if (!tenth.ok) throw new Error('the tenth fits');
    await store.refund(tenth.receipt);
    expect((await store.consume([numberCheck('a'), site], sec(10))).ok).toBe(true);
    expect((await store.consume([site], sec(11))).ok).toBe(false);
  });

  it('holds at most the configured in-flight requests per key, until released or expired', async () => {
    const store = make(1000);
    expect(await store.acquire('k', 1, 10_000, sec(0))).toBe(true);
    expect(await store.acquire('k', 1, 10_000, sec(1))).toBe(false);
    await store.release('k');
    expect(await store.acquire('k', 1, 10_000, sec(2))).toBe(true);
    expect(await store.acquire('k', 1, 10_000, sec(13))).toBe(true);
    expect(await store.acquire('two', 2, 10_000, sec(13))).toBe(true);
    expect(await store.acquire('two', 2, 10_000, sec(13))).toBe(true);
    expect(await store.acquire('two', 2, 10_000, sec(13))).toBe(false);
    expect(store.sizes().in_flight).toBe(2);
  });

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
