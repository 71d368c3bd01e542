// A number refused by its own counts (limits/limiter.ts): a visitor's next call to it, from any
// address, is refused from memory for a moment (no surge check, no in-flight slot, no look at the
// limit tables), with a strike against who asked; never past the number's own wait; forgotten when
// an admission for the number is refunded; and a booking is not held by it.
import { describe, expect, it } from 'vitest';
import { LimitRefusalError } from '../../../server/src/limits/refusal.ts';
import { createMemoryLimitStore } from '../../../server/src/limits/memory/limit-store.ts';
import { LIMITER_T0 as T0, testLimiter } from '../../support/limiter.ts';

const SITE = 'https://shop.example';
const NUMBER = '380501234567';

function setup(env: Record<string, string> = {}) {
  const inner = createMemoryLimitStore({ maxKeysPerTable: 1000, startMs: T0 });
  const calls = { consume: 0, acquire: 0 };
  const store = {
    ...inner,
    consume: (...args: Parameters<typeof inner.consume>) => {
      // Strikes are consumed one check at a time in their own tables; count the admissions' looks.
      if (args[0].some((c) => c.table === 'number')) calls.consume++;
      return inner.consume(...args);
    },
    acquire: (...args: Parameters<typeof inner.acquire>) => {
      calls.acquire++;
      return inner.acquire(...args);
    },
  };
  const { limiter, clock } = testLimiter({ LIMIT_CLIENT_NUMBERS_DAILY: '32', LIMIT_NETWORK_REFUSALS: '65000', ...env }, store);
  return { limiter, clock, calls };
}

const reasonOf = async (p: Promise<unknown>) => {
  try {
    await p;
    return 'admitted';
  } catch (err) {
    return err instanceof LimitRefusalError ? `${err.refusal.reason} ${err.refusal.retryAfter}` : String(err);
  }
};

describe('a number refused by its own counts', () => {
  it('is refused again from memory, whoever asks, with the wait left, until the hold ends; then the limits answer', async () => {
    const { limiter, clock, calls } = setup();
    await (await limiter.admit({ digits: NUMBER, clientIp: '198.51.100.1', site: SITE })).release();
    clock.now += 1_000;
    expect(await reasonOf(limiter.admit({ digits: NUMBER, clientIp: '203.0.113.1', site: SITE }))).toBe('number_cooldown 119');
    const looked = { ...calls };
    clock.now += 1_500;
    // Ever-new addresses: refused with no look at the tables and no in-flight slot.
    for (const ip of ['203.0.113.2', '192.0.2.3', '2001:db8::4']) expect(await reasonOf(limiter.admit({ digits: NUMBER, clientIp: ip, site: SITE }))).toBe('number_cooldown 118');
    expect(calls).toEqual(looked);
    // Past the hold (3 s), the limits are asked again, and hold it again.
    clock.now += 2_000;
    expect(await reasonOf(limiter.admit({ digits: NUMBER, clientIp: '203.0.113.5', site: SITE }))).toBe('number_cooldown 116');
    expect(calls.consume).toBe(looked.consume + 1);
    // Other numbers are not touched.
    expect(await reasonOf(limiter.admit({ digits: '380671112233', clientIp: '203.0.113.5', site: SITE }))).toBe('admitted');
  });

  it('each refusal from memory is still a strike against who asked', async () => {
    const { limiter, clock } = setup({ LIMIT_CLIENT_REFUSALS: '3' });
    await (await limiter.admit({ digits: NUMBER, clientIp: '198.51.100.1', site: SITE })).release();
    clock.now += 1_000;
    for (let i = 0; i < 3; i++) await reasonOf(limiter.admit({ digits: NUMBER, clientIp: '203.0.113.9', site: SITE }));
    expect((await limiter.blockedClient('203.0.113.9'))?.reason).toBe('client_refusals');
  });

  it('is never held past its own wait', async () => {
    const { limiter, clock, calls } = setup({ LIMIT_NUMBER_COOLDOWN_SECONDS: '2' });
    await (await limiter.admit({ digits: NUMBER, clientIp: '198.51.100.1', site: SITE })).release();
    clock.now += 500;
    expect(await reasonOf(limiter.admit({ digits: NUMBER, clientIp: '203.0.113.1', site: SITE }))).toBe('number_cooldown 2');
    // Two seconds after the call, the cooldown is over, though the hold's 3 s are not.
    clock.now += 1_600;
    expect(await reasonOf(limiter.admit({ digits: NUMBER, clientIp: '203.0.113.2', site: SITE }))).toBe('admitted');
    expect(calls.consume).toBe(3);
  });

  it('is forgotten when an admission for the number is refunded (the service never got the call)', async () => {
    // Two calls may be in flight, so the second is refused by the cooldown (held), not by the slot.
    const { limiter, clock } = setup({ LIMIT_NUMBER_IN_FLIGHT: '2' });
    const first = await limiter.admit({ digits: NUMBER, clientIp: '198.51.100.1', site: SITE });
    clock.now += 100;
    expect(await reasonOf(limiter.admit({ digits: NUMBER, clientIp: '203.0.113.1', site: SITE }))).toBe('number_cooldown 120');
    await first.refund();
    expect(await reasonOf(limiter.admit({ digits: NUMBER, clientIp: '203.0.113.2', site: SITE }))).toBe('admitted');
  });

  it("does not hold a booking for later, which the number's counts do not limit", async () => {
    const { limiter, clock } = setup();
    await (await limiter.admit({ digits: NUMBER, clientIp: '198.51.100.1', site: SITE })).release();
    clock.now += 1_000;
    expect(await reasonOf(limiter.admit({ digits: NUMBER, clientIp: '203.0.113.1', site: SITE }))).toBe('number_cooldown 119');
    expect(await reasonOf(limiter.admit({ digits: NUMBER, clientIp: '203.0.113.2', site: SITE, part: 'visitor' }))).toBe('admitted');
  });
});
