// The memory limit store on its own, beyond the contract every store meets
// (limit-store-contract.test.ts): failing closed at capacity, exact logs against weighted counters,
// growth; and the client keys and networks the limiter counts.
import { describe, expect, it } from 'vitest';
import { createMemoryLimitStore } from '../../../server/src/limits/memory/limit-store.ts';
import type { LimitCheck } from '../../../server/src/limits/limit-store.ts';
import { clientKey, expandIPv6 } from '../../../server/src/limits/client-key.ts';
import { networksOf } from '../../../server/src/limits/networks.ts';
import { hex, numberCheck, sec, T0 } from '../../support/limit-store-cases.ts';

describe('memory limit store', () => {
  // The rules every store shares (cooldowns, caps, all or nothing, peek, weighted counters, distinct
  // members, refunds, in-flight slots) run on this store in limit-store-contract.test.ts; here, what
  // only its memory layout can show.
  it('peek creates nothing: no table and no key for a check that was only looked at', async () => {
    const store = createMemoryLimitStore({ maxKeysPerTable: 1000, startMs: T0 });
    const client: LimitCheck = { table: 'client', key: hex('p'), counts: [{ reason: 'client_rate', limit: 2, windowSec: 600 }] };
    expect(await store.peek(client, sec(0))).toEqual([]);
    expect(store.sizes()).toEqual({ in_flight: 0 });
    expect((await store.consume([{ ...client, key: hex('other') }], sec(0))).ok).toBe(true);
    expect(await store.peek(client, sec(0))).toEqual([]);
    expect(store.sizes().client).toBe(1);
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
