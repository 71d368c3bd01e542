// The blocked-client cache (limits/blocked-clients.ts cacheBlockedClients): a client found blocked, and
// every new address of a network found blocked, is answered from memory for a moment, with no look
// at the limit tables; never past the wait the limits gave.
import { describe, expect, it } from 'vitest';
import { createMemoryLimitStore } from '../../../server/src/limits/memory/limit-store.ts';
import { cacheBlockedClients } from '../../../server/src/limits/blocked-clients.ts';

import { LIMITER_T0 as T0, testLimiter } from '../../support/limiter.ts';
const SITE = 'https://shop.example';

function setup() {
  const inner = createMemoryLimitStore({ maxKeysPerTable: 1000, startMs: T0 });
  let peeks = 0;
  const store = {
    ...inner,
    peek: (...args: Parameters<typeof inner.peek>) => {
      peeks++;
      return inner.peek(...args);
    },
  };
  const { limiter, clock } = testLimiter({ LIMIT_CLIENT_REFUSALS: '65000', LIMIT_NETWORK_REFUSALS: '3', LIMIT_CLIENT_NUMBERS_DAILY: '32' }, store);
  return { limiter: cacheBlockedClients(limiter, { now: () => clock.now }), peeks: () => peeks, clock };
}

describe('the blocked-client cache', () => {
  it('answers every new address of a blocked network from memory, and other networks from the limits', async () => {
    const { limiter, peeks, clock } = setup();
    await (await limiter.admit({ digits: '380501234567', clientIp: '198.51.100.1', site: SITE })).release();
    // Three refusals from three addresses of one /24 (the number cools down): the /24 is blocked.
    for (const ip of ['203.0.113.1', '203.0.113.2', '203.0.113.3']) {
      await expect(limiter.admit({ digits: '380501234567', clientIp: ip, site: SITE })).rejects.toThrow();
    }
    const first = await limiter.blockedClient('203.0.113.4');
    expect(first?.reason).toBe('network_refusals');
    const looked = peeks();
    // Another new address of the same /24: refused with no look at the tables.
    expect((await limiter.blockedClient('203.0.113.99'))?.reason).toBe('network_refusals');
    expect(peeks()).toBe(looked);
    // An address of another /24 is looked up as usual, and is not blocked.
    expect(await limiter.blockedClient('192.0.2.7')).toBeNull();
    expect(peeks()).toBeGreaterThan(looked);
    // Never past the limits' own wait: once the window has moved on, the limits answer again.
    clock.now += 601_000;
    const again = peeks();
    expect(await limiter.blockedClient('203.0.113.100')).toBeNull();
    expect(peeks()).toBeGreaterThan(again);
  });

  it('forgets a client when one of its admissions is refunded: the place it gave back is free at once', async () => {
    const { limiter } = setup();
    const client = '198.51.100.9';
    // LIMIT_CLIENT_RATE (3): the third call fills the client's rate.
    for (const n of ['380501234561', '380501234562']) await (await limiter.admit({ digits: n, clientIp: client, site: SITE })).release();
    const third = await limiter.admit({ digits: '380501234563', clientIp: client, site: SITE });
    await third.release();
    expect((await limiter.blockedClient(client))?.reason).toBe('client_rate');
    // The service never got the third call: its count is given back, and the cache lets go too.
    await third.refund();
    expect(await limiter.blockedClient(client)).toBeNull();
  });
});
