// A call held for later counts its limits in two parts: the visitor's when it is booked, the
// destination's when it is placed (limits/plan.ts AdmitInput.part).
import { describe, expect, it } from 'vitest';
import { LimitRefusalError } from '../../../server/src/limits/refusal.ts';
import { createMemoryLimitStore } from '../../../server/src/limits/memory/limit-store.ts';

import { LIMITER_T0 as T0, testLimiter } from '../../support/limiter.ts';
const SITE = 'https://shop.example';

function limiter() {
  const { limiter: limits, clock } = testLimiter({ LIMIT_CLIENT_RATE: '2', LIMIT_CLIENT_REFUSALS: '2', LIMIT_CLIENT_NUMBERS_DAILY: '32' });
  return { limits, clock };
}
const reasonOf = async (p: Promise<unknown>) => {
  try {
    await p;
    return 'admitted';
  } catch (err) {
    return err instanceof LimitRefusalError ? err.refusal.reason : String(err);
  }
};

describe('admitting a held call in two parts', () => {
  it("a booking counts the visitor's limits only: the number is not cooling down and not held in flight", async () => {
    const { limits } = limiter();
    const booking = await limits.admit({ digits: '380501234567', clientIp: '203.0.113.7', site: SITE, part: 'visitor' });
    await booking.release();
    // The same number may be placed right away (no cooldown counted), by anyone.
    expect(await reasonOf(limits.admit({ digits: '380501234567', clientIp: '198.51.100.1', site: SITE }))).toBe('admitted');
    // The visitor's own rate was counted: with LIMIT_CLIENT_RATE=2 its next call now is its second, the one after is refused.
    expect(await reasonOf(limits.admit({ digits: '380501111111', clientIp: '203.0.113.7', site: SITE }))).toBe('admitted');
    expect(await reasonOf(limits.admit({ digits: '380502222222', clientIp: '203.0.113.7', site: SITE }))).toBe('client_rate');
  });

  it("placing counts the number's limits at that moment, never the visitor's, and is no strike", async () => {
    const { limits, clock } = limiter();
    await (await limits.admit({ digits: '380501234567', clientIp: '198.51.100.1', site: SITE })).release();
    clock.now += 10_000;
    // The number cooled down two minutes: the held call meets the cooldown of this moment.
    expect(await reasonOf(limits.admit({ digits: '380501234567', clientIp: '203.0.113.7', site: SITE, part: 'destination' }))).toBe('number_cooldown');
    expect(await reasonOf(limits.admit({ digits: '380501234567', clientIp: '203.0.113.7', site: SITE, part: 'destination' }))).toBe('number_cooldown');
    expect(await reasonOf(limits.admit({ digits: '380501234567', clientIp: '203.0.113.7', site: SITE, part: 'destination' }))).toBe('number_cooldown');
    // Three refusals, yet the visitor is not blocked (LIMIT_CLIENT_REFUSALS=2): they were not its tries.
    expect(await limits.blockedClient('203.0.113.7')).toBeNull();
    clock.now += 200_000;
    const placed = await limits.admit({ digits: '380501234567', clientIp: '203.0.113.7', site: SITE, part: 'destination' });
    // The visitor's rate is untouched by placing: two calls of its own still pass.
    expect(await reasonOf(limits.admit({ digits: '380501111111', clientIp: '203.0.113.7', site: SITE }))).toBe('admitted');
    // The number is held in flight until released.
    expect(await reasonOf(limits.admit({ digits: '380501234567', clientIp: '198.51.100.9', site: SITE }))).toBe('number_in_flight');
    await placed.release();
  });
});

describe('which limit writes a call waits for', () => {
  it('strikes and surge records are deferrable; everything an admitted call counts is not', async () => {
    const inner = createMemoryLimitStore({ maxKeysPerTable: 1000, startMs: T0 });
    const writes: string[][] = [];
    const store = {
      ...inner,
      consume: (checks: Parameters<typeof inner.consume>[0], now: number) => {
        writes.push(checks.map((c) => c.table));
        return inner.consume(checks, now);
      },
    };
    const { limiter: limits } = testLimiter({ LIMIT_CLIENT_NUMBERS_DAILY: '32' }, store);
    await (await limits.admit({ digits: '380501234567', clientIp: '203.0.113.7', site: SITE })).release();
    const admitted = writes.splice(0);
    // The number cools down: a refusal, which is a strike.
    expect(await reasonOf(limits.admit({ digits: '380501234567', clientIp: '203.0.113.8', site: SITE }))).toBe('number_cooldown');
    const afterRefusal = writes.splice(0);
    const { DEFERRABLE_TABLES } = await import('../../../server/src/limits/limit-store.ts');
    const [counted, ...records] = admitted;
    expect(counted!.filter((t) => DEFERRABLE_TABLES.includes(t))).toEqual([]);
    expect(records.flat().length).toBeGreaterThan(0);
    expect(records.flat().every((t) => DEFERRABLE_TABLES.includes(t))).toBe(true);
    const strikes = afterRefusal.slice(1).flat();
    expect(strikes).toContain('client_refusals');
    expect(strikes.every((t) => DEFERRABLE_TABLES.includes(t))).toBe(true);
  });
});
