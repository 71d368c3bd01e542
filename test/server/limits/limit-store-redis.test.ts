// What only the Redis limit store has (the shared contract cases run in limit-store-contract.test.ts): atomicity across clients, outages,
// prefixes, TTLs, running out of memory, and the connection's log lines and metrics hooks.
import { Registry } from 'prom-client';
import { createClient } from 'redis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { deadUrl } from '../../support/listen.ts';
import type { LimitCheck, LimitStore } from '../../../server/src/limits/limit-store.ts';
import { StoreUnavailableError } from '../../../server/src/storage/errors.ts';
import { connectRedis, type CommandOutcome, type RedisConnection } from '../../../server/src/storage/redis/connection.ts';
import { createRedisLimitStore } from '../../../server/src/limits/redis/limit-store.ts';
import { createRedisMetrics } from '../../../server/src/storage/redis/metrics.ts';
import { startRedisServer, type RedisServer } from '../../support/redis-server.ts';
import { hex, numberCheck, sec, T0 } from '../../support/limit-store-cases.ts';

interface Line {
  level: string;
  msg: string;
  fields?: Record<string, unknown>;
}

let server: RedisServer;
const connections: RedisConnection[] = [];
let prefixes = 0;

beforeAll(async () => {
  server = await startRedisServer();
});

afterAll(async () => {
  await Promise.all(connections.map((c) => c.close()));
  await server?.stop();
});

function connect(options: { prefix?: string; lines?: Line[]; commands?: Array<{ operation: string; outcome: CommandOutcome }>; timeoutMs?: number } = {}): RedisConnection {
  const lines = options.lines ?? [];
  const at = (level: string) => (msg: string, fields?: Record<string, unknown>) => void lines.push({ level, msg, ...(fields && { fields }) });
  const connection = connectRedis(
    { url: server.url, prefix: options.prefix ?? `t${++prefixes}:`, commandTimeoutMs: options.timeoutMs ?? 500, connectTimeoutMs: 3_000 },
    { log: { info: at('info'), warn: at('warn'), error: at('error') }, observer: { command: (operation, _s, outcome) => options.commands?.push({ operation, outcome }) } },
  );
  connections.push(connection);
  return connection;
}

async function redisStore(prefix?: string): Promise<{ store: LimitStore; connection: RedisConnection }> {
  const connection = connect(prefix === undefined ? {} : { prefix });
  expect(await connection.waitReady(5_000)).toBe(true);
  return { store: createRedisLimitStore({ connection }), connection };
}

// The contract cases themselves run over memory, SQLite and Redis in limit-store-contract.test.ts.

describe('Redis limit store', () => {
  it('is atomic across relays: 300 parallel consumes for one number through 3 clients admit exactly the allowed count', async () => {
    const prefix = `atomic${++prefixes}:`;
    const stores = await Promise.all([0, 1, 2].map(async () => (await redisStore(prefix)).store));
    // A number with room for 5 a day and no cooldown, and a client cap far away.
    const check: LimitCheck = { table: 'number', key: hex('victim'), counts: [{ reason: 'number_daily', limit: 5, windowSec: 86_400 }] };
    const site: LimitCheck = { table: 'site', key: hex('site'), counts: [{ reason: 'site_hourly_cap', limit: 60, windowSec: 3600 }] };
    const decisions = await Promise.all(Array.from({ length: 300 }, (_, i) => stores[i % 3]!.consume([check, site], sec(0))));
    expect(decisions.filter((d) => d.ok)).toHaveLength(5);
    // And a counter limit (the site cap) is exact too: 60 of 300 for another set of numbers.
    const spread = await Promise.all(
      Array.from({ length: 300 }, (_, i) =>
        stores[i % 3]!.consume(
          [
            { ...check, key: hex(`n${i}`) },
            { ...site, key: hex('site2') },
          ],
          sec(1),
        ),
      ),
    );
    expect(spread.filter((d) => d.ok)).toHaveLength(60);
    // In-flight slots too: one of 300.
    const slots = await Promise.all(Array.from({ length: 300 }, (_, i) => stores[i % 3]!.acquire(hex('one'), 1, 10_000, sec(0))));
    expect(slots.filter(Boolean)).toHaveLength(1);
  });

  it('sends the peeks made while one is on its way as one script once it is answered, each record read once, each peek answered as if alone', async () => {
    const commands: Array<{ operation: string; outcome: CommandOutcome }> = [];
    const connection = connect({ commands, timeoutMs: 5_000 });
    expect(await connection.waitReady(5_000)).toBe(true);
    const store = createRedisLimitStore({ connection });
    // Numbers 0-9 on cooldown (one call each), 10-19 never called.
    for (let i = 0; i < 10; i++) expect((await store.consume([numberCheck(`n${i}`)], sec(0))).ok).toBe(true);
    commands.length = 0;
    const admin = createClient({ url: server.url });
    await admin.connect();
    await admin.configResetStat();
    // A flood's peeks, two per tick over 20 ticks, while the first batch is on its way (Redis
    // frozen, so its answer cannot come back in between, however fast the machine).
    const peeks: Array<Promise<unknown>> = [];
    await server.pause();
    try {
      for (let tick = 0; tick < 20; tick++) {
        peeks.push(store.peek(numberCheck(`n${tick}`), sec(30)), store.peek(numberCheck(`n${(tick + 10) % 20}`), sec(30)));
        await new Promise((r) => setImmediate(r));
      }
    } finally {
      await server.resume();
    }
    const answers = await Promise.all(peeks);
    for (const [i, answer] of answers.entries()) {
      const tick = Math.floor(i / 2);
      const n = i % 2 === 0 ? tick : (tick + 10) % 20;
      expect(answer).toEqual(n < 10 ? [{ reason: 'number_cooldown', retryAfter: 90 }] : []);
    }
    // 40 peeks in 20 ticks: the first tick's, then all the others together.
    expect(commands.filter((c) => c.operation === 'limits.peek')).toEqual([
      { operation: 'limits.peek', outcome: 'ok' },
      { operation: 'limits.peek', outcome: 'ok' },
    ]);
    // Each record read once per script, however many peeks asked for it: 2, then the 20 numbers.
    const stats = await admin.info('commandstats');
    admin.destroy();
    expect(/cmdstat_get:calls=(\d+)/.exec(stats)?.[1]).toBe('22');
  });

  it('consumes one record several times in one script (a flood’s strikes against one /24), each seeing the ones before it', async () => {
    const { store, connection } = await redisStore();
    const strikes: LimitCheck = { table: 'network_refusals', key: hex('203.0.113.0/24'), counts: [{ reason: 'network_refusals', limit: 3, windowSec: 600 }] };
    const site: LimitCheck = { table: 'site', key: hex('site'), counts: [{ reason: 'site_hourly_cap', limit: 60, windowSec: 3600 }] };
    // Same tick: one script. Five strikes with room for three, and two consumes of another record between them.
    const decisions = await Promise.all([
      store.consume([strikes], sec(0)),
      store.consume([site], sec(0)),
      store.consume([strikes], sec(0)),
      store.consume([strikes], sec(0)),
      store.consume([site, strikes], sec(0)),
      store.consume([strikes], sec(0)),
    ]);
    expect(decisions.map((d) => (d.ok ? 'ok' : d.refusals[0]!.reason))).toEqual(['ok', 'ok', 'ok', 'ok', 'network_refusals', 'network_refusals']);
    // The refused consume of both wrote neither: the site counted once, the strikes three times.
    expect(await store.peek(strikes, sec(1))).toEqual([{ reason: 'network_refusals', retryAfter: 599 }]);
    const key = `${connection.keyspace('limits')}site:${hex('site').slice(0, 16)}`;
    expect(await connection.client.get(key)).toBe(`|3600:${Math.floor(sec(0) / 1000 / 3600)}:0:1|`);
    expect(await connection.client.ttl(key)).toBe(7200);
  });

  it("keeps two prefixes apart: one site sharing the Redis does not see the other's counts", async () => {
    const a = await redisStore('siteA:');
    const b = await redisStore('siteB:');
    expect((await a.store.consume([numberCheck('shared')], sec(0))).ok).toBe(true);
    expect((await a.store.consume([numberCheck('shared')], sec(1))).ok).toBe(false);
    expect((await b.store.consume([numberCheck('shared')], sec(1))).ok).toBe(true);
    expect(await b.store.acquire('k', 1, 10_000, sec(0))).toBe(true);
    expect(await a.store.acquire('k', 1, 10_000, sec(0))).toBe(true);
    // The connection's own write-check key (health) aside: the limits' keys.
    const keys = (await a.connection.client.keys('site*')).filter((k) => !k.includes('health}:'));
    expect(keys.every((k) => k.startsWith('siteA:{siteA:limits}:') || k.startsWith('siteB:{siteB:limits}:'))).toBe(true);
    expect(keys.filter((k) => k.startsWith('siteA:'))).toHaveLength(2);
  });

  it('gives every key it writes a TTL of its longest window', async () => {
    const prefix = `ttl${++prefixes}:`;
    const { store, connection } = await redisStore(prefix);
    const client: LimitCheck = {
      table: 'client',
      key: hex('c'),
      counts: [
        { reason: 'client_rate', limit: 3, windowSec: 600 },
        { reason: 'client_daily', limit: 10, windowSec: 86_400 },
      ],
    };
    const numbers: LimitCheck = { table: 'client_numbers', key: hex('c'), distinct: { reason: 'client_numbers', limit: 2, windowSec: 86_400, member: hex('n') } };
    const decision = await store.consume([numberCheck('n'), client, numbers], sec(0));
    expect(decision.ok).toBe(true);
    if (decision.ok) await store.refund(decision.receipt);
    await store.acquire(hex('n'), 1, 30_000, sec(0));
    await store.acquire(hex('m'), 2, 30_000, sec(0));
    await store.acquire(hex('m'), 2, 30_000, sec(0));
    await store.release(hex('m'));
    // A released last slot leaves no key behind.
    await store.acquire(hex('gone'), 1, 30_000, sec(0));
    await store.release(hex('gone'));
    const ttls = new Map<string, number>();
    for await (const batch of connection.client.scanIterator({ MATCH: `${prefix}{${prefix}limits}*`, COUNT: 100 })) {
      for (const key of batch) ttls.set(key.slice(prefix.length), await connection.client.pTTL(key));
    }
    const days = (ms: number) => Math.round(ms / 86_400_000);
    expect(ttls.size).toBe(5);
    for (const [key, ttl] of ttls) expect(ttl, key).toBeGreaterThan(0);
    // The number: its daily log; the client: two windows of its daily counter; the in-flight slots: their TTL.
    expect(days(ttls.get(`{${prefix}limits}:number:${hex('n').slice(0, 16)}`)!)).toBe(1);
    expect(days(ttls.get(`{${prefix}limits}:client:${hex('c').slice(0, 16)}`)!)).toBe(2);
    expect(days(ttls.get(`{${prefix}limits}:client_numbers:${hex('c').slice(0, 16)}`)!)).toBe(1);
    expect(ttls.get(`{${prefix}limits}:in_flight:${hex('n').slice(0, 16)}`)!).toBeLessThanOrEqual(30_000);
  });

  it('refuses with limiter_full when Redis is out of memory, and peeks and recovers', async () => {
    const { store, connection } = await redisStore();
    expect((await store.consume([numberCheck('known')], sec(0))).ok).toBe(true);
    await connection.client.configSet({ maxmemory: '1', 'maxmemory-policy': 'noeviction' });
    try {
      expect(await store.consume([numberCheck('new')], sec(1))).toEqual({ ok: false, refusals: [{ reason: 'limiter_full', retryAfter: 60 }] });
      // Reading still works: a blocked client is still told so.
      expect(await store.peek(numberCheck('known'), sec(1))).toEqual([{ reason: 'number_cooldown', retryAfter: 119 }]);
      await expect(store.acquire(hex('new'), 1, 10_000, sec(1))).rejects.toBeInstanceOf(StoreUnavailableError);
    } finally {
      await connection.client.configSet({ maxmemory: '0' });
    }
    expect((await store.consume([numberCheck('new')], sec(2))).ok).toBe(true);
  });

  it('warns once at connection when Redis may evict keys (limits would fail open)', async () => {
    const admin = connect();
    expect(await admin.waitReady(5_000)).toBe(true);
    await admin.client.configSet('maxmemory-policy', 'allkeys-lru');
    try {
      const lines: Line[] = [];
      const connection = connect({ lines });
      expect(await connection.waitReady(5_000)).toBe(true);
      await expect.poll(() => lines.filter((l) => l.level === 'warn' && l.msg.includes('maxmemory-policy')).length).toBe(1);
      expect(lines.find((l) => l.msg.includes('maxmemory-policy'))?.fields).toEqual({ policy: 'allkeys-lru' });
    } finally {
      await admin.client.configSet('maxmemory-policy', 'noeviction');
    }
    const quiet: Line[] = [];
    const fine = connect({ lines: quiet });
    expect(await fine.waitReady(5_000)).toBe(true);
    // Replies on one connection come in order: after this PING the policy's answer has been handled.
    await fine.ping();
    expect(quiet.filter((l) => l.msg.includes('maxmemory-policy'))).toEqual([]);
  });

  it('reads and writes records that a human can follow', async () => {
    const prefix = `fmt${++prefixes}:`;
    const { store, connection } = await redisStore(prefix);
    const site: LimitCheck = {
      table: 'site',
      key: hex('s'),
      counts: [
        { reason: 'site_hourly_cap', limit: 100, windowSec: 3600 },
        { reason: 'site_daily_cap', limit: 500, windowSec: 86_400 },
      ],
    };
    await store.consume([numberCheck('a'), site], sec(0));
    await store.consume([{ table: 'client_numbers', key: hex('c'), distinct: { reason: 'client_numbers', limit: 2, windowSec: 86_400, member: 'abcdef0123456789' } }], sec(0));
    const s0 = T0 / 1000;
    expect(await connection.client.get(`${prefix}{${prefix}limits}:number:${hex('a').slice(0, 16)}`)).toBe(`${s0}||`);
    expect(await connection.client.get(`${prefix}{${prefix}limits}:site:${hex('s').slice(0, 16)}`)).toBe(
      `|3600:${Math.floor(s0 / 3600)}:0:1,86400:${Math.floor(s0 / 86_400)}:0:1|`,
    );
    expect(await connection.client.get(`${prefix}{${prefix}limits}:client_numbers:${hex('c').slice(0, 16)}`)).toBe(`||${s0}:abcdef01`);
  });
});

describe('Redis outage', () => {
  it('answers with a typed error at once while Redis is down, logs one line each way, and recovers without a new client', async () => {
    const lines: Line[] = [];
    const commands: Array<{ operation: string; outcome: CommandOutcome }> = [];
    const connection = connect({ lines, commands });
    expect(await connection.waitReady(5_000)).toBe(true);
    const store = createRedisLimitStore({ connection });
    expect((await store.consume([numberCheck('before')], sec(0))).ok).toBe(true);

    await server.kill();
    try {
      for (let i = 0; i < 20; i++) {
        const started = performance.now();
        const error = await store.consume([numberCheck(`down${i}`)], sec(1)).then(
          () => null,
          (err: unknown) => err,
        );
        expect(error).toBeInstanceOf(StoreUnavailableError);
        expect(error).toMatchObject({ name: 'StoreUnavailableError', code: 'store_unavailable', operation: 'limits.consume' });
        expect(performance.now() - started).toBeLessThan(1_000);
      }
      await expect(store.peek(numberCheck('before'), sec(1))).rejects.toBeInstanceOf(StoreUnavailableError);
      await expect(store.acquire('k', 1, 1000, sec(1))).rejects.toBeInstanceOf(StoreUnavailableError);
      expect(connection.ready).toBe(false);
      expect(await connection.ping()).toBe(false);
    } finally {
      await server.restart();
    }
    expect(await connection.waitReady(10_000)).toBe(true);
    // The data survived (AOF), and the same client works again.
    expect(await store.consume([numberCheck('before')], sec(2))).toEqual({ ok: false, refusals: [{ reason: 'number_cooldown', retryAfter: 118 }] });
    expect((await store.consume([numberCheck('after')], sec(2))).ok).toBe(true);

    const alerts = lines.filter((l) => l.msg.startsWith('ALERT redis unreachable'));
    expect(alerts).toHaveLength(1);
    expect(alerts[0]!.level).toBe('error');
    expect(lines.filter((l) => l.msg === 'redis reachable again')).toHaveLength(1);
    // Every command was observed, the refused ones as 'offline'.
    expect(commands.filter((c) => c.operation === 'limits.consume' && c.outcome === 'offline').length).toBeGreaterThanOrEqual(20);
    expect(commands.filter((c) => c.operation === 'limits.consume' && c.outcome === 'ok').length).toBeGreaterThanOrEqual(3);
  });

  it('does not hang on a Redis that stops answering: the deadline fails the command, and it recovers', async () => {
    const lines: Line[] = [];
    const connection = connect({ lines, timeoutMs: 300 });
    expect(await connection.waitReady(5_000)).toBe(true);
    const store = createRedisLimitStore({ connection });
    await server.pause();
    try {
      const started = performance.now();
      await expect(store.consume([numberCheck('paused')], sec(0))).rejects.toMatchObject({ name: 'StoreUnavailableError', reason: 'timeout' });
      expect(performance.now() - started).toBeLessThan(1_000);
      // Suspect now: the next command fails at once rather than waiting out another deadline.
      const next = performance.now();
      await expect(store.peek(numberCheck('paused'), sec(0))).rejects.toMatchObject({ reason: 'disconnected' });
      expect(performance.now() - next).toBeLessThan(100);
      expect(connection.ready).toBe(false);
    } finally {
      await server.resume();
    }
    expect(await connection.waitReady(5_000)).toBe(true);
    expect(await store.peek(numberCheck('paused'), sec(0))).toEqual(expect.any(Array));
    expect(lines.filter((l) => l.msg.startsWith('ALERT redis unreachable'))).toHaveLength(1);
    expect(lines.filter((l) => l.msg === 'redis reachable again')).toHaveLength(1);
  });
});

describe('Redis metrics', () => {
  it('shows command latency, errors and reachability in /metrics, also for a Redis that is down from the start', async () => {
    const registry = new Registry();
    const live = connectRedis(
      { url: server.url, prefix: 'm1:', commandTimeoutMs: 500, connectTimeoutMs: 3_000 },
      { log: { info() {}, warn() {}, error() {} }, observer: createRedisMetrics(registry) },
    );
    connections.push(live);
    expect(await live.waitReady(5_000)).toBe(true);
    await createRedisLimitStore({ connection: live }).consume([numberCheck('m')], sec(0));
    let text = await registry.metrics();
    expect(text).toContain('dialback_redis_command_duration_seconds_count{operation="limits.consume",outcome="ok"} 1');
    expect(text).toContain('dialback_redis_up 1');

    const lines: Line[] = [];
    const down = new Registry();
    const dead = connectRedis(
      { url: (await deadUrl()).replace('http:', 'redis:'), prefix: 'm2:', commandTimeoutMs: 500, connectTimeoutMs: 3_000 },
      {
        log: { info: () => {}, warn: (msg) => void lines.push({ level: 'warn', msg }), error: (msg) => void lines.push({ level: 'error', msg }) },
        observer: createRedisMetrics(down),
      },
    );
    connections.push(dead);
    expect(await dead.waitReady(300)).toBe(false);
    const store = createRedisLimitStore({ connection: dead });
    for (let i = 0; i < 5; i++) await expect(store.peek(numberCheck('m'), sec(0))).rejects.toMatchObject({ code: 'store_unavailable', reason: 'disconnected' });
    text = await down.metrics();
    expect(text).toContain('dialback_redis_errors_total{operation="limits.peek",outcome="offline"} 5');
    expect(text).toContain('dialback_redis_up 0');
    // Retrying all along, yet one line.
    expect(lines.filter((l) => l.msg.startsWith('ALERT redis unreachable'))).toHaveLength(1);
  });
});
