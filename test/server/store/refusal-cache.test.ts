// The blocked-client cache (store/refusal-cache.ts cacheBlockedClients): a client found blocked, and
// every new address of a network found blocked, is answered from memory for a moment, with no look
// at the limit tables; never past the wait the limits gave.
import { describe, expect, it } from 'vitest';
import { loadConfig } from '../../../server/src/config.ts';
import { createLogger } from '../../../server/src/log.ts';
import { createRelayMetrics } from '../../../server/src/metrics/relay-metrics.ts';
import { createLimiter } from '../../../server/src/protect/limiter.ts';
import { createMemoryLimitStore } from '../../../server/src/protect/memory-limit-store.ts';
import { cacheBlockedClients } from '../../../server/src/store/refusal-cache.ts';

const T0 = Date.parse('2026-11-20T10:00:00Z');
const SITE = 'https://shop.example';

function setup() {
  const config = loadConfig(
    { LIMIT_CLIENT_REFUSALS: '65000', LIMIT_NETWORK_REFUSALS: '3', LIMIT_CLIENT_NUMBERS_DAILY: '32' },
    { baseUrl: 'http://127.0.0.1:1', authKey: 'sim-auth-key', projectId: '1', caller: '380441112233' },
  );
  const clock = { now: T0 };
  const inner = createMemoryLimitStore({ maxKeysPerTable: 1000, startMs: T0 });
  let peeks = 0;
  const store = {
    ...inner,
    peek: (...args: Parameters<typeof inner.peek>) => {
      peeks++;
      return inner.peek(...args);
    },
  };
  const limiter = createLimiter({
    settings: config.protect.limits,
    store,
    hashSecret: 'test-hash-secret-0123456789',
    log: createLogger({ level: 'silent' }),
    metrics: createRelayMetrics(),
    inFlightTtlMs: 10_000,
    now: () => clock.now,
  });
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
});
