// The Redis limit store's strikes held in memory (limits/redis/strike-buffer.ts): written together
// at most 100 ms after the first (the timer moved on by hand here), each record's summed and written
// once, at once when 128 records hold some, and at shutdown; counted by this relay's own looks before
// they are written, not by another relay's until then; lost ones reported. The contract case every
// store passes (a look sees a strike at once, none past its limit) is in limit-store-cases.ts.
import { createClient } from 'redis';
import { afterAll, describe, expect, it } from 'vitest';
import type { LimitCheck } from '../../../server/src/limits/limit-store.ts';
import { createRedisLimitStore } from '../../../server/src/limits/redis/limit-store.ts';
import { loadConfig } from '../../../server/src/config/index.ts';
import { createLogger } from '../../../server/src/log/index.ts';
import { openRedisStores } from '../../../server/src/app/redis-stores.ts';
import { HELD_ENV } from '../../support/held-calls.ts';
import { NO_SERVICE_ENV } from '../../support/notify-receivers.ts';
import { StoreUnavailableError } from '../../../server/src/storage/errors.ts';
import { connectRedis, type RedisConnection } from '../../../server/src/storage/redis/connection.ts';
import { createManualTimers } from '../../support/manual-timers.ts';
import { redisForTests } from '../../support/redis-test-connection.ts';
import { hex, sec, T0 } from '../../support/limit-store-cases.ts';

const redis = redisForTests();
const connections: RedisConnection[] = [];
let prefixes = 0;
afterAll(async () => {
  await Promise.all(connections.splice(0).map((c) => c.close()));
});

/** A relay's limit store on its own connection (its commands counted by operation), its strikes' timer moved by hand. */
async function relayStore(prefix: string) {
  const operations: string[] = [];
  const connection = connectRedis(
    // No write check during a test: the commands counted are the store's own.
    { url: redis.server.url, prefix, commandTimeoutMs: 2_000, connectTimeoutMs: 3_000, checkIntervalMs: 3_600_000 },
    { log: { info: () => {}, warn: () => {}, error: () => {} }, observer: { command: (operation) => void (operation.startsWith('limits.') && operations.push(operation)) } },
  );
  connections.push(connection);
  expect(await connection.waitReady(5_000)).toBe(true);
  const clock = createManualTimers();
  const store = createRedisLimitStore({ connection, timers: clock.timers });
  const record = (check: LimitCheck) => connection.client.get(`${prefix}{${prefix}limits}:${check.table}:${check.key.slice(0, 16)}`);
  return { store, connection, clock, operations, record };
}

const clientStrikes = (name: string): LimitCheck => ({ table: 'client_refusals', key: hex(name), counts: [{ reason: 'client_refusals', limit: 3, windowSec: 600 }] });
const networkStrikes = (name: string): LimitCheck => ({ table: 'network_refusals', key: hex(name), counts: [{ reason: 'network_refusals', limit: 100, windowSec: 600 }] });
const s0 = T0 / 1000;
const windowOf = s0 - (s0 % 600);

describe('Redis limit store: strikes held a moment', () => {
  it('writes a flood’s strikes 100 ms after the first, in one script, each record’s summed and none past its limit', async () => {
    const { store, clock, operations, record } = await relayStore(`strikes${++prefixes}:`);
    // 20 new clients of one /24, each refused twice (the last one five times: two past its limit).
    const taken: Promise<boolean>[] = [];
    for (let c = 0; c < 20; c++) {
      for (let i = 0; i < (c === 19 ? 5 : 2); i++) taken.push(store.strike(clientStrikes(`c${c}`), sec(0)), store.strike(networkStrikes('net'), sec(i % 2)));
    }
    clock.advance(99);
    expect(await record(networkStrikes('net'))).toBeNull();
    expect(operations).toEqual([]);
    const admin = createClient({ url: redis.server.url });
    await admin.connect();
    await admin.configResetStat();
    clock.advance(1);
    expect(await Promise.all(taken)).toEqual(Array(taken.length).fill(true));
    expect(operations).toEqual(['limits.strike']);
    // 21 records, each read and written once: the /24's 43 strikes (a counter: over 8) summed.
    const stats = await admin.info('commandstats');
    admin.destroy();
    expect(/cmdstat_get:calls=(\d+)/.exec(stats)?.[1]).toBe('21');
    expect(/cmdstat_set:calls=(\d+)/.exec(stats)?.[1]).toBe('21');
    expect(await record(networkStrikes('net'))).toBe(`|600:${windowOf / 600}:0:43|`);
    expect(await record(clientStrikes('c0'))).toBe(`${s0},${s0}||`);
    expect(await record(clientStrikes('c19'))).toBe(`${s0},${s0},${s0}||`);
    expect(await store.peek(clientStrikes('c19'), sec(2))).toEqual([{ reason: 'client_refusals', retryAfter: 598 }]);
  });

  it('counts its own held strikes in its looks at once; another relay sees them once written', async () => {
    const prefix = `relays${++prefixes}:`;
    const [a, b] = [await relayStore(prefix), await relayStore(prefix)];
    const striker = clientStrikes('rotating bot');
    for (let i = 0; i < 3; i++) void a.store.strike(striker, sec(0));
    const blocked = [{ reason: 'client_refusals', retryAfter: 599 }];
    expect(await a.store.peek(striker, sec(1))).toEqual(blocked);
    expect(await b.store.peek(striker, sec(1))).toEqual([]);
    a.clock.advance(100);
    await a.store.flushStrikes();
    expect(await b.store.peek(striker, sec(1))).toEqual(blocked);
    // Strikes held by both relays add up in Redis: b's one more is over the limit and not counted.
    void b.store.strike(striker, sec(1));
    await b.store.flushStrikes();
    expect(await a.record(striker)).toBe(`${s0},${s0},${s0}||`);
  });

  it('writes at once when 128 records hold strikes, and everything held at shutdown', async () => {
    const { store, operations, record } = await relayStore(`full${++prefixes}:`);
    // The timer is never moved on here: only the 128th record sends them.
    const first = Array.from({ length: 128 }, (_, i) => store.strike(clientStrikes(`a${i}`), sec(0)));
    expect(await Promise.all(first)).toEqual(Array(128).fill(true));
    expect(operations).toEqual(['limits.strike']);
    void store.strike(clientStrikes('last'), sec(0));
    await store.flushStrikes();
    expect(operations).toEqual(['limits.strike', 'limits.strike']);
    expect(await record(clientStrikes('last'))).toBe(`${s0}||`);
  });

  it('reports a strike Redis could not take: out of memory (no room), down (rejected); the look still counts what is held', async () => {
    const { store, connection, clock } = await relayStore(`lost${++prefixes}:`);
    await connection.client.configSet({ maxmemory: '1', 'maxmemory-policy': 'noeviction' });
    try {
      const full = store.strike(clientStrikes('oom'), sec(0));
      clock.advance(100);
      expect(await full).toBe(false);
    } finally {
      await connection.client.configSet({ maxmemory: '0' });
    }
    await redis.server.kill();
    try {
      const down = store.strike(clientStrikes('down'), sec(0));
      clock.advance(100);
      await expect(down).rejects.toBeInstanceOf(StoreUnavailableError);
    } finally {
      await redis.server.restart();
    }
    expect(await connection.waitReady(10_000)).toBe(true);
    void store.strike(clientStrikes('after'), sec(0));
    expect(await store.peek(clientStrikes('after'), sec(0))).toEqual([]);
    void store.strike(clientStrikes('after'), sec(0));
    void store.strike(clientStrikes('after'), sec(0));
    expect(await store.peek(clientStrikes('after'), sec(0))).toEqual([{ reason: 'client_refusals', retryAfter: 600 }]);
  });

  it('the relay’s Redis stores write the strikes they hold when they close (SIGTERM), before their connection goes', async () => {
    const config = loadConfig({ ...HELD_ENV, ...NO_SERVICE_ENV, PORT: '0', REDIS_URL: redis.server.url });
    const connection = redis.fresh();
    const stores = openRedisStores(config, createLogger({ level: 'silent' }), { connection });
    const strike = clientStrikes('closing');
    expect(await connection.waitReady(5_000)).toBe(true);
    const taken = (stores.limits.strike ?? (() => Promise.reject(new Error('no strike'))))(strike, sec(0));
    await stores.close();
    expect(await taken).toBe(true);
    // Read through a connection of its own, with the closed one's key prefix.
    const reader = createClient({ url: redis.server.url });
    await reader.connect();
    try {
      const keys = await reader.keys(`*limits}:client_refusals:${strike.key.slice(0, 16)}`);
      expect(keys).toHaveLength(1);
      expect(await reader.get(keys[0]!)).toBe(`${s0}||`);
    } finally {
      await reader.quit();
    }
  });
});
