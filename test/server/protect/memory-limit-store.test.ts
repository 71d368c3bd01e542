// The memory limit store on its own: exact sliding logs, weighted counters, distinct members,
// all-or-nothing consumption, refunds, and failing closed at capacity.
import { describe, expect, it } from 'vitest';
import { createHash } from 'node:crypto';
import { createMemoryLimitStore } from '../../../server/src/protect/memory-limit-store.ts';
import type { LimitCheck } from '../../../server/src/protect/limit-store.ts';
import { clientKey, expandIPv6 } from '../../../server/src/protect/client-key.ts';
import { networksOf } from '../../../server/src/protect/networks.ts';

const T0 = 1_700_000_000_000;
const hex = (s: string) => createHash('sha256').update(s).digest('hex');
const sec = (n: number) => T0 + n * 1000;

const numberCheck = (n: string): LimitCheck => ({
  table: 'number',
  key: hex(n),
  counts: [
    { reason: 'number_cooldown', limit: 1, windowSec: 120 },
    { reason: 'number_daily', limit: 3, windowSec: 86_400 },
  ],
});

describe('memory limit store', () => {
  it('keeps an exact cooldown and daily cap per key, with the wait until the next allowed request', async () => {
    const store = createMemoryLimitStore({ maxKeysPerTable: 1000, startMs: T0 });
    expect((await store.consume([numberCheck('a')], sec(0))).ok).toBe(true);
    const early = await store.consume([numberCheck('a')], sec(100));
    expect(early).toEqual({ ok: false, refusals: [{ reason: 'number_cooldown', retryAfter: 20 }] });
    expect((await store.consume([numberCheck('b')], sec(100))).ok).toBe(true);
    expect((await store.consume([numberCheck('a')], sec(120))).ok).toBe(true);
    expect((await store.consume([numberCheck('a')], sec(240))).ok).toBe(true);
    const fourth = await store.consume([numberCheck('a')], sec(400));
    expect(fourth).toEqual({ ok: false, refusals: [{ reason: 'number_daily', retryAfter: 86_400 - 400 }] });
    // A day after the first, one place is free again.
    expect((await store.consume([numberCheck('a')], sec(86_400))).ok).toBe(true);
  });

  it('refuses all or nothing: a refused plan counts against none of its keys', async () => {
    const store = createMemoryLimitStore({ maxKeysPerTable: 1000, startMs: T0 });
    const client: LimitCheck = { table: 'client', key: hex('c'), counts: [{ reason: 'client_rate', limit: 2, windowSec: 600 }] };
    expect((await store.consume([numberCheck('a'), client], sec(0))).ok).toBe(true);
    // The number refuses, so the client's second place stays free.
    expect((await store.consume([numberCheck('a'), client], sec(10))).ok).toBe(false);
    expect((await store.consume([numberCheck('b'), client], sec(20))).ok).toBe(true);
    const third = await store.consume([numberCheck('c'), client], sec(30));
    expect(third.ok === false && third.refusals.map((r) => r.reason)).toEqual(['client_rate']);
  });

  it('peek tells what one check would meet now, counting and creating nothing', async () => {
    const store = createMemoryLimitStore({ maxKeysPerTable: 1000, startMs: T0 });
    const client: LimitCheck = {
      table: 'client',
      key: hex('p'),
      counts: [
        { reason: 'client_rate', limit: 2, windowSec: 600 },
        { reason: 'client_daily', limit: 20, windowSec: 86_400 },
      ],
    };
    // Unknown table, then unknown key: nothing met, nothing created.
    expect(await store.peek(client, sec(0))).toEqual([]);
    expect(store.sizes()).toEqual({ in_flight: 0 });
    expect((await store.consume([{ ...client, key: hex('other') }], sec(0))).ok).toBe(true);
    expect(await store.peek(client, sec(0))).toEqual([]);
    expect(store.sizes().client).toBe(1);
    for (let i = 0; i < 50; i++) expect(await store.peek(client, sec(1))).toEqual([]);
    // Peeking counted nothing: the full rate is still there.
    expect((await store.consume([client], sec(10))).ok).toBe(true);
    expect((await store.consume([client], sec(20))).ok).toBe(true);
    const blocked = await store.peek(client, sec(30));
    expect(blocked).toEqual([{ reason: 'client_rate', retryAfter: 580 }]);
    // The same answer consume gives, and the wait is honest.
    expect(await store.consume([client], sec(30))).toEqual({ ok: false, refusals: blocked });
    expect(await store.peek(client, sec(610))).toEqual([]);
    // A different rule set for the same table is a programming error, as in consume.
    await expect(store.peek({ ...client, counts: [{ reason: 'client_rate', limit: 3, windowSec: 600 }] }, sec(0))).rejects.toThrow(/two different rule sets/);
  });

  it('counts large limits with a weighted two-window counter', async () => {
    const store = createMemoryLimitStore({ maxKeysPerTable: 1000, startMs: T0 });
    const site: LimitCheck = { table: 'site', key: hex('s'), counts: [{ reason: 'site_hourly_cap', limit: 10, windowSec: 3600 }] };
    for (let i = 0; i < 10; i++) expect((await store.consume([site], sec(i))).ok).toBe(true);
    const over = await store.consume([site], sec(20));
    expect(over.ok).toBe(false);
    if (!over.ok) {
      expect(over.refusals[0]!.reason).toBe('site_hourly_cap');
      expect(over.refusals[0]!.retryAfter).toBeGreaterThan(0);
      // At the promised time there is room again.
      expect((await store.consume([site], sec(20 + over.refusals[0]!.retryAfter))).ok).toBe(true);
    }
  });

  it('lets a client reach a few distinct numbers a day, repeating one of them freely', async () => {
    const store = createMemoryLimitStore({ maxKeysPerTable: 1000, startMs: T0 });
    const numbers = (n: string): LimitCheck => ({
      table: 'client_numbers',
      key: hex('client'),
      distinct: { reason: 'client_numbers', limit: 2, windowSec: 86_400, member: hex(n) },
    });
    expect((await store.consume([numbers('a')], sec(0))).ok).toBe(true);
    expect((await store.consume([numbers('b')], sec(1))).ok).toBe(true);
    expect((await store.consume([numbers('a')], sec(2))).ok).toBe(true);
    expect(await store.consume([numbers('c')], sec(3))).toEqual({ ok: false, refusals: [{ reason: 'client_numbers', retryAfter: 86_400 - 3 }] });
    expect((await store.consume([numbers('c')], sec(86_401))).ok).toBe(true);
  });

  it('gives back what a refunded request counted', async () => {
    const store = createMemoryLimitStore({ maxKeysPerTable: 1000, startMs: T0 });
    const site: LimitCheck = { table: 'site', key: hex('s'), counts: [{ reason: 'site_hourly_cap', limit: 9, windowSec: 3600 }] };
    const first = await store.consume([numberCheck('a'), site], sec(0));
    expect(first.ok).toBe(true);
    if (first.ok) await store.refund(first.receipt);
    expect((await store.consume([numberCheck('a'), site], sec(1))).ok).toBe(true);
  });

  /** Consumes `check` and refunds what it counted; the consume must be allowed. */
  async function consumeAndRefund(store: ReturnType<typeof createMemoryLimitStore>, check: LimitCheck, at: number): Promise<void> {
    const decision = await store.consume([check], at);
    if (!decision.ok) throw new Error(`expected room, got ${JSON.stringify(decision.refusals)}`);
    await store.refund(decision.receipt);
  }

  it('gives back one place of a counter at its limit, in the same window', async () => {
    const store = createMemoryLimitStore({ maxKeysPerTable: 1000, startMs: T0 });
    const site: LimitCheck = { table: 'site', key: hex('s'), counts: [{ reason: 'site_hourly_cap', limit: 10, windowSec: 3600 }] };
    for (let i = 0; i < 9; i++) expect((await store.consume([site], sec(i))).ok).toBe(true);
    await consumeAndRefund(store, site, sec(9));
    expect((await store.consume([site], sec(10))).ok).toBe(true);
    // One place was given back, not more.
    expect((await store.consume([site], sec(11))).ok).toBe(false);
  });

  it('gives back a counter place of the previous window after the window has moved on', async () => {
    const store = createMemoryLimitStore({ maxKeysPerTable: 1000, startMs: T0 });
    const site: LimitCheck = { table: 'site', key: hex('s'), counts: [{ reason: 'site_hourly_cap', limit: 10, windowSec: 3600 }] };
    // The store's clock reads sec(n) as second n + 1, so the second window starts at sec(3599).
    const intoSecondWindow = (fraction: number) => sec(3599 + Math.round(3600 * fraction));
    for (let i = 0; i < 9; i++) expect((await store.consume([site], sec(i))).ok).toBe(true);
    const tenth = await store.consume([site], sec(9));
    if (!tenth.ok) throw new Error('the tenth request fits the limit');
    // 12% into the next window the first window weighs 10 × 0.88 = 8.8: room for one.
    expect((await store.consume([site], intoSecondWindow(0.12))).ok).toBe(true);
    await store.refund(tenth.receipt);
    // At 15%, 9 × 0.85 + 1 = 8.65 leaves room; without the refund 10 × 0.85 + 1 = 9.5 would not.
    expect((await store.consume([site], intoSecondWindow(0.15))).ok).toBe(true);
    expect((await store.consume([site], intoSecondWindow(0.15))).ok).toBe(false);
  });

  it('gives back a distinct member of a full set', async () => {
    const store = createMemoryLimitStore({ maxKeysPerTable: 1000, startMs: T0 });
    const numbers = (n: string): LimitCheck => ({
      table: 'client_numbers',
      key: hex('client'),
      distinct: { reason: 'client_numbers', limit: 2, windowSec: 86_400, member: hex(n) },
    });
    expect((await store.consume([numbers('a')], sec(0))).ok).toBe(true);
    await consumeAndRefund(store, numbers('b'), sec(1));
    expect((await store.consume([numbers('c')], sec(2))).ok).toBe(true);
    // b's place went to c: the set is full again.
    expect((await store.consume([numbers('d')], sec(3))).ok).toBe(false);
  });

  it('holds at most the configured in-flight requests per key, until released or expired', async () => {
    const store = createMemoryLimitStore({ maxKeysPerTable: 1000, startMs: T0 });
    expect(await store.acquire('k', 1, 10_000, sec(0))).toBe(true);
    expect(await store.acquire('k', 1, 10_000, sec(1))).toBe(false);
    await store.release('k');
    expect(await store.acquire('k', 1, 10_000, sec(2))).toBe(true);
    // A lost release cannot block the number for longer than the TTL.
    expect(await store.acquire('k', 1, 10_000, sec(13))).toBe(true);
  });

  it('fails closed at capacity, and makes room as old keys expire', async () => {
    const store = createMemoryLimitStore({ maxKeysPerTable: 1000, startMs: T0 });
    const cooldown = (n: number): LimitCheck => ({ table: 'number', key: hex(String(n)), counts: [{ reason: 'number_cooldown', limit: 1, windowSec: 120 }] });
    for (let i = 0; i < 1000; i++) expect((await store.consume([cooldown(i)], sec(0))).ok).toBe(true);
    expect(await store.consume([cooldown(5000)], sec(1))).toEqual({ ok: false, refusals: [{ reason: 'limiter_full', retryAfter: 60 }] });
    // Known keys still get their correct answer at capacity.
    expect((await store.consume([cooldown(7)], sec(1))).ok).toBe(false);
    expect(store.sizes().number).toBe(1000);
    expect((await store.consume([cooldown(5000)], sec(121))).ok).toBe(true);
    expect(store.sizes().number).toBe(1);
  });

  it('counts an exact rule with a sliding log whatever its limit; the same limit without it is a weighted counter', async () => {
    const store = createMemoryLimitStore({ maxKeysPerTable: 1000, startMs: T0 });
    const exact: LimitCheck = { table: 'network_exact', key: hex('n'), counts: [{ reason: 'network_rate', limit: 20, windowSec: 3600, exact: true }] };
    const approx: LimitCheck = { table: 'network_approx', key: hex('n'), counts: [{ reason: 'network_rate', limit: 20, windowSec: 3600 }] };
    // 20 at the very end of one counter window, then more just after it.
    for (const check of [exact, approx]) for (let i = 0; i < 20; i++) expect((await store.consume([check], sec(3598))).ok).toBe(true);
    const afterBoundary = async (check: LimitCheck) => {
      let accepted = 0;
      for (let i = 0; i < 20; i++) if ((await store.consume([check], sec(3600 + 1800))).ok) accepted++;
      return accepted;
    };
    // The sliding log lets none through within the hour; the weighted counter, half the window on, lets some.
    expect(await afterBoundary(exact)).toBe(0);
    expect(await afterBoundary(approx)).toBeGreaterThan(0);
    expect(await store.consume([exact], sec(3600 + 1800))).toEqual({ ok: false, refusals: [{ reason: 'network_rate', retryAfter: 3598 + 3600 - 5400 }] });
    expect((await store.consume([exact], sec(3598 + 3600))).ok).toBe(true);
    // Another rule set for the same table is refused, exactness included.
    await expect(store.consume([{ ...exact, counts: [{ reason: 'network_rate', limit: 20, windowSec: 3600 }] }], sec(7200))).rejects.toThrow(/two different rule sets/);
  });

  it('keeps limits exact across table growth (100,000 keys)', async () => {
    const store = createMemoryLimitStore({ maxKeysPerTable: 200_000, startMs: T0 });
    for (let i = 0; i < 100_000; i++) await store.consume([numberCheck(`n${i}`)], sec(0));
    expect(store.sizes().number).toBe(100_000);
    for (const i of [0, 4242, 99_999]) expect((await store.consume([numberCheck(`n${i}`)], sec(5))).ok).toBe(false);
  });
});

describe('client keys', () => {
  it('counts IPv4 addresses one by one and IPv6 addresses by their /64', () => {
    expect(clientKey('203.0.113.9')).toBe('203.0.113.9');
    expect(clientKey('2001:db8:1:2::1')).toBe(clientKey('2001:db8:1:2:ffff:ffff:ffff:ffff'));
    expect(clientKey('2001:db8:1:2::1')).not.toBe(clientKey('2001:db8:1:3::1'));
    expect(expandIPv6('::ffff:192.0.2.1')).toEqual(['0000', '0000', '0000', '0000', '0000', 'ffff', 'c000', '0201']);
    expect(expandIPv6('::')).toHaveLength(8);
  });

  it('takes an IPv4-mapped IPv6 address, in either form, for its IPv4 address', () => {
    expect(clientKey('::ffff:192.0.2.1')).toBe('192.0.2.1');
    expect(clientKey('::ffff:c000:201')).toBe('192.0.2.1');
    expect(clientKey('::ffff:c000:202')).not.toBe(clientKey('::ffff:c000:201'));
    expect(clientKey('::1')).toBe('0000:0000:0000:0000::/64');
  });

  it('names the networks an address can rotate through', () => {
    expect(networksOf('198.51.100.77')).toEqual([{ size: 'ipv4_24', prefix: '198.51.100.0/24' }]);
    expect(networksOf('::ffff:c633:644d')).toEqual([{ size: 'ipv4_24', prefix: '198.51.100.0/24' }]);
    expect(networksOf('2001:db8:1:2345::9')).toEqual([
      { size: 'ipv6_56', prefix: '2001:0db8:0001:2300::/56' },
      { size: 'ipv6_48', prefix: '2001:0db8:0001::/48' },
    ]);
    expect(networksOf('2001:db8:1:23ff::9')[0]).toEqual(networksOf('2001:db8:1:2300::1')[0]);
    expect(networksOf('not an address')).toEqual([]);
  });
});
