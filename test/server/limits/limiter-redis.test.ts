// The relay's limiter (limits/limiter.ts), unchanged, over the Redis limit store behind the refusal
// cache, as a relay with REDIS_URL would build it: two limiters (two relays) share one Redis, and
// while Redis is down neither admits a request (the error is typed, so the relay answers 503).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createLogger } from '../../../server/src/log/index.ts';
import { createRelayMetrics } from '../../../server/src/metrics/relay-metrics.ts';
import { createLimiter, LimitRefusalError, type Limiter } from '../../../server/src/limits/index.ts';
import type { LimitSettings } from '../../../server/src/config/limits.ts';
import { StoreUnavailableError, toRelayError } from '../../../server/src/storage/errors.ts';
import { connectRedis, type RedisConnection } from '../../../server/src/storage/redis/connection.ts';
import { createRedisLimitStore, type RedisLimitStore } from '../../../server/src/limits/redis/limit-store.ts';
import { createManualTimers } from '../../support/manual-timers.ts';
import { cacheBlockedClients } from '../../../server/src/limits/blocked-clients.ts';
import { startRedisServer, type RedisServer } from '../../support/redis-server.ts';
import { T0 } from '../../support/limit-store-cases.ts';

const settings: LimitSettings = {
  numberCooldownSec: 120,
  numberDaily: 3,
  numberInFlight: 1,
  clientRate: 3,
  clientRateWindowSec: 600,
  clientDaily: 10,
  clientNumbersDaily: 2,
  clientRefusals: 4,
  prefixRate: 5,
  prefixWindowSec: 600,
  siteHourlyCap: 100,
  siteDailyCap: 500,
  maxKeys: 1_000_000,
  // Networks and surges are off: these tests are about two relays sharing one store.
  networks: { ipv4_24: { hourly: 0, daily: 0 }, ipv6_56: { hourly: 0, daily: 0 }, ipv6_48: { hourly: 0, daily: 0 } },
  networkRefusals: 65_000,
  surge: { calls: 0, windowSec: 300, hourlyCalls: 0, networkCalls: 2 },
};

let server: RedisServer;
const connections: RedisConnection[] = [];
let clock = T0;

beforeAll(async () => {
  server = await startRedisServer();
});
afterAll(async () => {
  await Promise.all(connections.map((c) => c.close()));
  await server?.stop();
});

/** A relay's limiter over Redis, the number of Redis commands it has sent, and its limit store. */
async function relayLimiter(): Promise<[Limiter, () => number, RedisLimitStore]> {
  const log = createLogger({ level: 'silent', write: () => {} });
  let commands = 0;
  const connection = connectRedis({ url: server.url, prefix: 'relays:', commandTimeoutMs: 500, connectTimeoutMs: 3_000 }, { log, observer: { command: () => void commands++ } });
  connections.push(connection);
  expect(await connection.waitReady(5_000)).toBe(true);
  // Its strikes are written when the test says so (the flush's timer never fires by itself).
  const store = createRedisLimitStore({ connection, timers: createManualTimers().timers });
  const now = () => clock;
  const limiter = createLimiter({ settings, store, hashSecret: 'x'.repeat(32), log, metrics: createRelayMetrics(), inFlightTtlMs: 30_000, now });
  return [cacheBlockedClients(limiter, { now }), () => commands, store];
}

const refusalOf = (p: Promise<unknown>) =>
  p.then(
    () => null,
    (err: unknown) => err,
  );

describe('limiter over Redis', () => {
  it('counts one number across two relays, refuses a blocked client up front, and fails closed while Redis is down', async () => {
    const [[a, , storeOfA], [b, commandsOfB, storeOfB]] = [await relayLimiter(), await relayLimiter()];
    const site = 'https://shop.example';
    const first = await a.admit({ digits: '380501234567', clientIp: '203.0.113.7', site });
    await first.release();
    // The other relay sees the number's cooldown.
    clock += 10_000;
    const cooldown = await refusalOf(b.admit({ digits: '380501234567', clientIp: '198.51.100.1', site }));
    expect(cooldown).toBeInstanceOf(LimitRefusalError);
    expect((cooldown as LimitRefusalError).refusal).toEqual({ reason: 'number_cooldown', retryAfter: 110 });
    // While a call is being placed, the same number is refused on the other relay too.
    const placing = await a.admit({ digits: '380509999999', clientIp: '203.0.113.8', site });
    expect(((await refusalOf(b.admit({ digits: '380509999999', clientIp: '203.0.113.9', site }))) as LimitRefusalError).refusal.reason).toBe('number_in_flight');
    await placing.release();

    // A client hammering a number on cooldown collects strikes; then it is refused before its body.
    expect(await b.blockedClient('198.51.100.1')).toBeNull();
    for (let i = 0; i < 3; i++) await refusalOf(a.admit({ digits: '380501234567', clientIp: '198.51.100.1', site }));
    // Each relay holds its strikes a moment (at most 100 ms) before writing them: relay a counts its
    // own three, not yet b's one (its cooldown refusal above), so the block (4) comes with b's write.
    expect(await a.blockedClient('198.51.100.1')).toBeNull();
    await storeOfB.flushStrikes();
    expect(await a.blockedClient('198.51.100.1')).toEqual({ reason: 'client_refusals', retryAfter: 600 });
    expect(await b.blockedClient('198.51.100.1')).toBeNull();
    await storeOfA.flushStrikes();
    expect(await b.blockedClient('198.51.100.1')).toEqual({ reason: 'client_refusals', retryAfter: 600 });
    // A flood from the blocked client costs the relay no Redis command.
    const sent = commandsOfB();
    for (let i = 0; i < 1000; i++) expect((await b.blockedClient('198.51.100.1'))?.reason).toBe('client_refusals');
    expect(commandsOfB()).toBe(sent);

    await server.kill();
    try {
      const down = await refusalOf(b.admit({ digits: '380507777777', clientIp: '192.0.2.1', site }));
      expect(down).toBeInstanceOf(StoreUnavailableError);
      expect(toRelayError(down as StoreUnavailableError)).toMatchObject({ status: 503, code: 'temporarily_unavailable', options: { retryAfter: 5 } });
      expect(await refusalOf(b.blockedClient('192.0.2.1'))).toBeInstanceOf(StoreUnavailableError);
      // The blocked client is still refused from the cache, without Redis.
      expect(await b.blockedClient('198.51.100.1')).toEqual({ reason: 'client_refusals', retryAfter: 600 });
    } finally {
      await server.restart();
    }
    for (const c of connections) expect(await c.waitReady(10_000)).toBe(true);
    clock += 1_000;
    const after = await b.admit({ digits: '380507777777', clientIp: '192.0.2.1', site });
    await after.release();
  });
});
