import { createClient } from 'redis';
import { describe, expect, it } from 'vitest';
import type { LimitCheck } from '../../../server/src/limits/limit-store.ts';
import { StoreUnavailableError } from '../../../server/src/storage/errors.ts';
import type { CommandOutcome } from '../../../server/src/storage/redis/connection.ts';
import { createRedisLimitStore } from '../../../server/src/limits/redis/limit-store.ts';
import { hex, numberCheck, sec, T0 } from '../../support/limit-store-cases.ts';
import { type Line, redisLimitHarness } from './redis-limit-harness.ts';

const { server: redis, connect, redisStore, freshPrefix } = redisLimitHarness();

// The contract cases themselves run over memory, SQLite and Redis in limit-store-contract.test.ts.

describe('Redis limit store', () => {
  it('is atomic across relays: 300 parallel consumes for one number through 3 clients admit exactly the allowed count', async () => {
    const prefix = freshPrefix('atomic');
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
    const admin = createClient({ url: redis().url });
    await admin.connect();
    await admin.configResetStat();
    // A flood's peeks, two per tick over 20 ticks, while the first batch is on its way (Redis
    // frozen, so its answer cannot come back in between, however fast the machine).
    const peeks: Array<Promise<unknown>> = [];
    await redis().pause();
    try {
      for (let tick = 0; tick < 20; tick++) {
        peeks.push(store.peek(numberCheck(`n${tick}`), sec(30)), store.peek(numberCheck(`n${(tick + 10) % 20}`), sec(30)));
        await new Promise((r) => setImmediate(r));
      }
    } finally {
      await redis().resume();
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
    const prefix = freshPrefix('ttl');
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
    const prefix = freshPrefix('fmt');
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
