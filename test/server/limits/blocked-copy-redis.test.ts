// The Redis limit store's copy of the blocked subjects (limits/redis/blocked-copy.ts), on one
// redis-server and on a real 3-primary Cluster: two stores on one keyspace are two relays, each with
// its own copy, its polls and its strikes' flush moved on by hand, its age on a clock of the test's.
// The copy answers what a look (peek) would, with no round trip: a relay's own writes at once,
// another relay's after a poll; a refund frees; a stale copy, or one on a connection that is down,
// does not answer; a promoted replica that lost changes, or a log trimmed past the copy, is read whole.
import { describe, expect, it } from 'vitest';
import type { LimitCheck, LimitStore } from '../../../server/src/limits/limit-store.ts';
import { Registry } from 'prom-client';
import { createRedisLimitStore, type RedisLimitStore } from '../../../server/src/limits/redis/limit-store.ts';
import { createBlockedCopy } from '../../../server/src/limits/redis/blocked-copy.ts';
import { reportBlockedCopy } from '../../../server/src/limits/redis/blocked-copy-metrics.ts';
import { openRedisStores } from '../../../server/src/app/redis-stores.ts';
import { createLimiter } from '../../../server/src/limits/index.ts';
import { loadConfig } from '../../../server/src/config/index.ts';
import { HELD_ENV } from '../../support/held-calls.ts';
import { NO_SERVICE_ENV } from '../../support/notify-receivers.ts';
import { createLogger } from '../../../server/src/log/index.ts';
import { createRelayMetrics } from '../../../server/src/metrics/relay-metrics.ts';
import type { RedisConnection } from '../../../server/src/storage/redis/connection.ts';
import { createManualTimers } from '../../support/manual-timers.ts';
import { redisForTests } from '../../support/redis-test-connection.ts';
import { hex, sec } from '../../support/limit-store-cases.ts';

const single = redisForTests();
const cluster = redisForTests({ cluster: true });

const clientCounts = (name: string): LimitCheck => ({
  table: 'client',
  key: hex(name),
  counts: [
    { reason: 'client_rate', limit: 3, windowSec: 600 },
    { reason: 'client_daily', limit: 10, windowSec: 86_400 },
  ],
});
const clientStrikes = (name: string): LimitCheck => ({ table: 'client_refusals', key: hex(name), counts: [{ reason: 'client_refusals', limit: 3, windowSec: 600 }] });
const networkStrikes = (name: string): LimitCheck => ({ table: 'network_refusals', key: hex(name), counts: [{ reason: 'network_refusals', limit: 20, windowSec: 600 }] });
const numberCheck = (name: string): LimitCheck => ({ table: 'number', key: hex(name), counts: [{ reason: 'number_cooldown', limit: 1, windowSec: 120 }] });

/** The operations a connection view sends (every other call passes through). */
function counting(connection: RedisConnection) {
  const sent: string[] = [];
  const view = Object.assign(Object.create(connection) as RedisConnection, {
    evalScript: (...args: Parameters<RedisConnection['evalScript']>) => {
      sent.push(args[0]);
      return connection.evalScript(...args);
    },
  });
  return { view, sent };
}

describe.each([
  ['redis', single],
  ['redis-cluster', cluster],
] as const)('the blocked copy on %s', (_kind, redis) => {
  /** Two relays on one fresh keyspace, each answering from its copy; `age(ms)` moves the copies' clock. */
  async function twoRelays() {
    const { view, sent } = counting(redis.fresh());
    let monotonic = 0;
    const relay = () => {
      const clock = createManualTimers();
      const store = createRedisLimitStore({ connection: view, timers: clock.timers, blockedCopy: { monotonic: () => monotonic } });
      return { store, clock };
    };
    const [a, b] = [relay(), relay()];
    await Promise.all([a.store.copy!.refresh(), b.store.copy!.refresh()]);
    return { a: a.store, b: b.store, aClock: a.clock, sent, connection: view, age: (ms: number) => void (monotonic += ms) };
  }

  it('answers a client’s counts as a look would, with no round trip: at once on the relay that counted, after a poll on another', async () => {
    const { a, b, sent } = await twoRelays();
    const c = clientCounts('busy client');
    for (let i = 0; i < 3; i++) expect((await a.consume([c, numberCheck(`n${i}`)], sec(i))).ok).toBe(true);
    const peeked = await a.peek(c, sec(5));
    expect(peeked).toEqual([{ reason: 'client_rate', retryAfter: 595 }]);
    sent.length = 0;
    expect(a.blockedNow!([c], sec(5))).toEqual(peeked);
    expect(sent).toEqual([]);
    // Another relay knows it once it has polled.
    expect(b.blockedNow!([c], sec(5))).toEqual([]);
    await b.copy!.refresh();
    expect(b.blockedNow!([c], sec(5))).toEqual(peeked);
    // Every reader judges by its own clock: the block runs out with no write.
    expect(b.blockedNow!([c], sec(599))).toEqual([{ reason: 'client_rate', retryAfter: 1 }]);
    expect(b.blockedNow!([c], sec(600))).toEqual([]);
    expect(await a.peek(c, sec(600))).toEqual([]);
    // A number is no client's block: never in the copy.
    expect(a.blockedNow!([numberCheck('n0')], sec(5))).toEqual([]);
  });

  it('counts a network’s strikes held here once they alone reach its limit, then from Redis once written; a client’s held strikes are left to the look', async () => {
    const { a, b, aClock } = await twoRelays();
    const net = networkStrikes('one /24');
    const written: Promise<boolean>[] = [];
    for (let i = 0; i < 19; i++) written.push(a.strike(net, sec(0)));
    expect(a.blockedNow!([net], sec(0))).toEqual([]);
    written.push(a.strike(net, sec(0)));
    expect(a.blockedNow!([net], sec(0))).toEqual([{ reason: 'network_refusals', retryAfter: 600 }]);
    aClock.advance(100);
    expect(await Promise.all(written)).toEqual(Array(20).fill(true));
    // Written: the strike script's answer put it in a's copy; b's poll brings it there.
    expect(a.blockedNow!([net], sec(1))).toEqual(await a.peek(net, sec(1)));
    await b.copy!.refresh();
    // (A limit over 8 is a two-window counter: its wait is the counter's, as the look says.)
    expect(b.blockedNow!([net], sec(1))).toEqual(await b.peek(net, sec(1)));
    expect(b.blockedNow!([net], sec(1))?.[0]?.reason).toBe('network_refusals');
    // A client with a strike held here: the copy does not answer (the look adds the held ones in).
    void a.strike(clientStrikes('tries again'), sec(1));
    expect(a.blockedNow!([clientStrikes('tries again'), net], sec(1))).toBeNull();
    await a.flushStrikes();
    expect(a.blockedNow!([clientStrikes('tries again')], sec(1))).toEqual([]);
  });

  it('a refund frees the subject on every relay; a block made before the copy existed is learnt at its next write', async () => {
    const { a, b, connection } = await twoRelays();
    const c = clientCounts('refunded');
    const receipts = [];
    for (let i = 0; i < 3; i++) {
      const decision = await a.consume([c], sec(i));
      if (!decision.ok) throw new Error('expected room');
      receipts.push(decision.receipt);
    }
    await b.copy!.refresh();
    expect(b.blockedNow!([c], sec(3))).toEqual([{ reason: 'client_rate', retryAfter: 597 }]);
    await a.refund(receipts[2]!);
    expect(a.blockedNow!([c], sec(3))).toEqual([]);
    await b.copy!.refresh();
    expect(b.blockedNow!([c], sec(3))).toEqual([]);
    expect(await a.peek(c, sec(3))).toEqual([]);
    // The blocks forgotten (as after an upgrade from a relay without them): a refused consume puts
    // the record's block back.
    expect((await a.consume([c], sec(4))).ok).toBe(true);
    const space = connection.keyspace('limits');
    await Promise.all([connection.client.del(`${space}blocks`), connection.client.del(`${space}blocks:log`), connection.client.del(`${space}blocks:seq`)]);
    const fresh = createRedisLimitStore({ connection, timers: createManualTimers().timers, blockedCopy: {} });
    await fresh.copy!.refresh();
    expect(fresh.blockedNow!([c], sec(5))).toEqual([]);
    expect((await fresh.consume([c], sec(5))).ok).toBe(false);
    expect(fresh.blockedNow!([c], sec(5))).toEqual([{ reason: 'client_rate', retryAfter: 595 }]);
    fresh.stop();
  });

  it('does not answer when its last poll was sent over a second ago, or without one', async () => {
    const { a, age } = await twoRelays();
    const c = clientCounts('anyone');
    expect(a.blockedNow!([c], sec(0))).toEqual([]);
    age(1_000);
    expect(a.blockedNow!([c], sec(0))).toEqual([]);
    age(1);
    expect(a.blockedNow!([c], sec(0))).toBeNull();
    await a.copy!.refresh();
    expect(a.blockedNow!([c], sec(0))).toEqual([]);
    // A store kept without a copy never answers.
    expect(createRedisLimitStore({ connection: redis.fresh() }).blockedNow!([c], sec(0))).toBeNull();
  });

  it('steps aside while more subjects are blocked than a copy holds (a botnet’s flood), and comes back under that', async () => {
    const connection = redis.fresh();
    const relay = createRedisLimitStore({ connection, timers: createManualTimers().timers, blockedCopy: { maxSubjects: 2 } });
    await relay.copy!.refresh();
    const clients = ['bot 1', 'bot 2', 'bot 3'].map(clientCounts);
    const receipts = [];
    for (const c of clients) {
      for (let i = 0; i < 3; i++) {
        const decision = await relay.consume([c], sec(i));
        if (decision.ok) receipts.push(decision.receipt);
      }
    }
    await relay.copy!.refresh();
    expect(relay.blockedNow!(clients, sec(3))).toBeNull();
    expect(relay.copy!.size).toBe(0);
    // Still three: the poll reads the set's size only.
    await relay.copy!.refresh();
    expect(relay.blockedNow!(clients, sec(3))).toBeNull();
    // One freed (its last call refunded): two, which the copy holds again.
    await relay.refund(receipts.at(-1)!);
    await relay.copy!.refresh();
    expect(relay.blockedNow!(clients, sec(3))?.map((r) => r.reason)).toEqual(['client_rate', 'client_rate']);
    relay.stop();
  });

  it('reads the whole set when Redis went back (a replica promoted without the last changes) or its log no longer reaches the copy', async () => {
    const { a, b, connection } = await twoRelays();
    const space = connection.keyspace('limits');
    const [gone, kept, later] = [clientCounts('lost in the failover'), clientCounts('kept'), clientCounts('after')];
    for (const c of [kept, gone]) for (let i = 0; i < 3; i++) await a.consume([c], sec(i));
    await b.copy!.refresh();
    expect(b.blockedNow!([gone, kept], sec(3))?.map((r) => r.reason)).toEqual(['client_rate', 'client_rate']);
    // The promoted replica had the first block and not the second (its seq is one lower).
    const blocks = await connection.client.zRange(`${space}blocks`, 0, -1);
    const log = await connection.client.zRange(`${space}blocks:log`, 0, -1);
    await connection.client.zRem(
      `${space}blocks`,
      blocks.filter((m) => m.startsWith(`client:${gone.key.slice(0, 16)}`)),
    );
    await connection.client.zRem(`${space}blocks:log`, log.slice(-1));
    await connection.client.decr(`${space}blocks:seq`);
    await b.copy!.refresh();
    expect(b.blockedNow!([gone], sec(3))).toEqual([]);
    expect(b.blockedNow!([kept], sec(3))).toEqual([{ reason: 'client_rate', retryAfter: 597 }]);
    // The log trimmed past b's seq: changes since are read whole.
    for (let i = 0; i < 3; i++) await a.consume([later], sec(i));
    await connection.client.zRemRangeByRank(`${space}blocks:log`, 0, -2);
    await b.copy!.refresh();
    expect(b.blockedNow!([later, kept], sec(3))?.map((r) => r.reason)).toEqual(['client_rate', 'client_rate']);
  });
});

describe('the limiter over a Redis store with a copy', () => {
  // The relay's limits as its settings make them: a client's third call and its second refusal block it.
  const settings = loadConfig({ ...HELD_ENV, ...NO_SERVICE_ENV, PORT: '0', LIMIT_CLIENT_RATE: '3', LIMIT_CLIENT_REFUSALS: '2', SURGE_CALLS: '0', SURGE_CAP_PERCENT: '0' }).protect
    .limits;

  function limiterOn(store: LimitStore, at: () => number) {
    const log = createLogger({ level: 'silent', write: () => {} });
    return createLimiter({ settings, store, hashSecret: 'x'.repeat(32), log, metrics: createRelayMetrics(), inFlightTtlMs: 30_000, now: at });
  }

  it('looks at a new client with no round trip; a client its own refusals block is refused at its limit, as before', async () => {
    const { view, sent } = counting(single.fresh());
    const clock = createManualTimers();
    const store = createRedisLimitStore({ connection: view, timers: clock.timers, blockedCopy: {} });
    await store.copy!.refresh();
    let now = sec(0);
    const limiter = limiterOn(store, () => now);
    sent.length = 0;
    expect(await limiter.blockedClient('198.51.100.7')).toBeNull();
    expect(sent).toEqual([]);
    // Its client's accepted calls: blocked at the third, from the consume's own answer.
    for (let i = 0; i < 3; i++) await (await limiter.admit({ digits: `38050123456${i}`, clientIp: '198.51.100.7', site: 'https://shop.example' })).release();
    expect(await limiter.blockedClient('198.51.100.7')).toEqual({ reason: 'client_rate', retryAfter: 600 });
    // Another client refused twice (the number on cooldown), its strikes still held: refused up front at once.
    now = sec(1);
    for (let i = 0; i < 2; i++) await limiter.admit({ digits: '380501234560', clientIp: '198.51.100.8', site: 'https://shop.example' }).catch(() => undefined);
    expect(await limiter.blockedClient('198.51.100.8')).toEqual({ reason: 'client_refusals', retryAfter: 600 });
    store.stop();
    await store.flushStrikes();
  });
});

describe('the copy in /metrics', () => {
  const gauge = async (registry: Registry, name: string) => new RegExp(`^${name} (\\S+)$`, 'm').exec(await registry.metrics())?.[1];

  it('the relay’s Redis stores show its age (under a second once polled) and the subjects it holds', async () => {
    const registry = new Registry();
    const config = loadConfig({ ...HELD_ENV, ...NO_SERVICE_ENV, PORT: '0', REDIS_URL: single.server.url });
    const stores = openRedisStores(config, createLogger({ level: 'silent' }), { connection: single.fresh(), registry });
    const limits = stores.limits as RedisLimitStore;
    try {
      await limits.copy!.refresh();
      expect(Number(await gauge(registry, 'dialback_limiter_blocked_copy_age_seconds'))).toBeLessThan(1);
      expect(await gauge(registry, 'dialback_limiter_blocked_subjects')).toBe('0');
      const c = clientCounts('shown');
      for (let i = 0; i < 3; i++) await limits.consume([c], Date.now());
      expect(await gauge(registry, 'dialback_limiter_blocked_subjects')).toBe('1');
    } finally {
      limits.stop();
    }
  });

  it('shows +Inf before the first poll is answered: the look then asks Redis', async () => {
    const registry = new Registry();
    const copy = createBlockedCopy({ read: () => new Promise(() => undefined), timers: createManualTimers().timers });
    reportBlockedCopy(copy, registry);
    expect(await gauge(registry, 'dialback_limiter_blocked_copy_age_seconds')).toBe('+Inf');
    expect(copy.fresh()).toBe(false);
    copy.stop();
  });
});
