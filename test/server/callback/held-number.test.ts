// A call now to a number its own counts refused moments ago is answered from the relay's memory
// before the never-call list, the Idempotency-Key and the limit tables are asked (with Redis, a
// flood of one number from ever-new addresses then waits for no round trip: the client's look comes
// from the relay's copy of the blocked subjects). Tested on the embedded store and on relays sharing a real redis-server, whose commands are
// counted by operation: what is skipped, what still holds (a strike against who asked, a repeat of a
// known Idempotency-Key answered as before, the never-call list once the hold is over), and a Redis
// that goes away mid-flood (429 or a clear 503, never a 500 or a hang).
import { createClient } from 'redis';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { Config } from '../../../server/src/config/index.ts';
import { numberHmac } from '../../../server/src/phone/number-hash.ts';
import { createLogger } from '../../../server/src/log/index.ts';
import { connectRedis } from '../../../server/src/storage/redis/connection.ts';
import type { RedisLimitStore } from '../../../server/src/limits/redis/limit-store.ts';
import { ORIGIN, postCallback } from '../../support/post-callback.ts';
import { redisRelaysPerTest } from '../../support/redis-relays.ts';
import { startRedisServer, type RedisServer } from '../../support/redis-server.ts';
import { redisForTests } from '../../support/redis-test-connection.ts';
import { errorOf, QUICK_CALLS, startSystem, type System } from '../../support/system.ts';

const redis = redisForTests();
const NUMBER = '050 123 45 67';
const quiet = createLogger({ level: 'warn', write: () => {} });

/** The relays' clock: the hold (3 s) is passed by moving it, not by waiting. */
let clock = Date.parse('2026-11-25T10:00:00Z');
const now = () => new Date(clock);

beforeEach(() => {
  // Each test starts on a whole second, 10 min after the last one: the Redis store counts in seconds.
  clock = Math.ceil(clock / 1000) * 1000 + 600_000;
});

let system: System | undefined;
const servers: RedisServer[] = [];
const startRedisRelay = redisRelaysPerTest();
let prefixes = 0;
afterEach(async () => {
  await system?.close();
  system = undefined;
  for (const s of servers.splice(0)) await s.stop();
});

async function embedded(env: Record<string, string> = {}): Promise<System> {
  system = await startSystem({ ALLOWED_ORIGINS: ORIGIN, TRUSTED_PROXIES: '127.0.0.1', LOG_LEVEL: 'warn', ...env }, { simulator: { timing: QUICK_CALLS }, now });
  return system;
}

/** A relay on Redis (the system's settings, `url` or the file's server), counting its Redis commands by operation. */
async function relayOnRedis(s: System, prefix: string, url = redis.server.url) {
  const config: Config = { ...s.config, redis: { url, prefix, commandTimeoutMs: 1_000, connectTimeoutMs: 3_000 } };
  const sent: Record<string, number> = {};
  // The blocked copy's polls (every 100 ms, whatever the requests) are not counted.
  const connection = connectRedis(config.redis!, { log: quiet, observer: { command: (op) => void (op !== 'limits.blocks' && (sent[op] = (sent[op] ?? 0) + 1)) } });
  const relay = await startRedisRelay(config, { log: quiet, now, connection });
  return {
    url: relay.url,
    stores: relay.stores,
    /** The commands sent while `run` ran, by operation. */
    async commandsOf(run: () => Promise<unknown>): Promise<Record<string, number>> {
      const before = { ...sent };
      await run();
      return Object.fromEntries(Object.entries(sent).flatMap(([op, n]) => (n - (before[op] ?? 0) > 0 ? [[op, n - (before[op] ?? 0)]] : [])));
    },
  };
}

/** A relay on a redis-server of the test's own (to freeze or kill), and the number called on it a second ago. */
async function numberCalledOnOwnRedis() {
  const s = await embedded();
  const own = await startRedisServer({ persistent: false });
  servers.push(own);
  const relay = await relayOnRedis(s, `own${++prefixes}:`, own.url);
  expect((await postCallback(relay, { phone: NUMBER }, from(0))).status).toBe(202);
  clock += 1_000;
  return { s, own, relay };
}

/** The relay's Redis limit store, to write the strikes it holds now instead of up to 100 ms later. */
const strikesOf = (relay: { stores: { limits: unknown } }) => relay.stores.limits as RedisLimitStore;

const from = (i: number) => ({ forwardedFor: `203.0.${Math.floor(i / 200)}.${(i % 200) + 1}` });
const reasonOf = async (answer: Awaited<ReturnType<typeof postCallback>>) => {
  if (answer.status < 400) return `${answer.status}`;
  const e = await errorOf(answer);
  return `${e.status} ${e.code} ${e.retryAfter}`;
};

describe.each(['embedded', 'redis'] as const)('a number refused moments ago, on the %s store', (kind) => {
  async function oneRelay(env: Record<string, string> = {}) {
    const s = await embedded(env);
    return kind === 'embedded' ? { url: s.relayUrl, sim: s.sim } : { url: (await relayOnRedis(s, `held${++prefixes}:`)).url, sim: s.sim };
  }

  it('is refused to a new client from memory with the wait left, each refusal a strike; after the hold the limits answer', async () => {
    const relay = await oneRelay({ LIMIT_CLIENT_REFUSALS: '2' });
    expect((await postCallback(relay, { phone: NUMBER }, from(0))).status).toBe(202);
    clock += 1_000;
    expect(await reasonOf(await postCallback(relay, { phone: NUMBER }, from(1)))).toBe('429 rate_limited 119');
    clock += 1_000;
    expect(await reasonOf(await postCallback(relay, { phone: NUMBER }, from(2)))).toBe('429 rate_limited 118');
    // Client 2's second refusal from memory is its second strike: from then on it is refused as a client.
    expect(await reasonOf(await postCallback(relay, { phone: NUMBER }, from(2)))).toBe('429 rate_limited 118');
    expect(await reasonOf(await postCallback(relay, { phone: '050 765 43 21' }, from(2)))).toBe('429 rate_limited 600');
    clock += 2_000;
    expect(await reasonOf(await postCallback(relay, { phone: NUMBER }, from(3)))).toBe('429 rate_limited 116');
    expect(relay.sim.calls).toHaveLength(1);
  });

  it('still gives a repeat of the accepted request (its Idempotency-Key) its first answer', async () => {
    const relay = await oneRelay();
    const first = await postCallback(relay, { phone: NUMBER }, { ...from(0), idempotencyKey: 'visitor-key-1' });
    expect(first.status).toBe(202);
    clock += 500;
    expect(await reasonOf(await postCallback(relay, { phone: NUMBER }, { ...from(1), idempotencyKey: 'other-key' }))).toBe('429 rate_limited 120');
    const repeat = await postCallback(relay, { phone: NUMBER }, { ...from(0), idempotencyKey: 'visitor-key-1' });
    expect(repeat.status).toBe(202);
    expect(repeat.headers.get('idempotent-replayed')).toBe('true');
    expect(repeat.json).toEqual(first.json);
    // A refused request's key is forgotten as before: it may be tried again.
    expect(await reasonOf(await postCallback(relay, { phone: NUMBER }, { ...from(1), idempotencyKey: 'other-key' }))).toBe('429 rate_limited 120');
    expect(relay.sim.calls).toHaveLength(1);
  });

  it('does not hold a booking for later (the number’s counts do not limit one)', async () => {
    const relay = await oneRelay();
    expect((await postCallback(relay, { phone: NUMBER }, from(0))).status).toBe(202);
    clock += 500;
    expect(await reasonOf(await postCallback(relay, { phone: NUMBER }, from(1)))).toBe('429 rate_limited 120');
    const later = new Date(clock + 3 * 3_600_000).toISOString();
    expect((await postCallback(relay, { phone: NUMBER, scheduledFor: later }, from(2))).status).toBe(202);
  });
});

describe('relays sharing one Redis', () => {
  it('a new client’s refusal from memory asks Redis for nothing but its strike (its look comes from the copy of the blocked subjects)', async () => {
    const s = await embedded();
    const [a, b] = [await relayOnRedis(s, `two${++prefixes}:`), await relayOnRedis(s, `two${prefixes}:`)];
    expect((await postCallback(a, { phone: NUMBER }, from(0))).status).toBe(202);
    clock += 1_000;
    // Relay b has not refused the number yet: its limits do (and it holds the refusal from then on).
    const byLimits = await b.commandsOf(async () => expect(await reasonOf(await postCallback(b, { phone: NUMBER }, from(1)))).toBe('429 rate_limited 119'));
    expect(byLimits['nevercall.get']).toBe(1);
    expect(byLimits['limits.consume']).toBeGreaterThanOrEqual(1);
    for (const [i, relay] of [b, b].entries()) {
      // The copy answers only while fresh (a poll answered within the last second of real time): a
      // loaded machine can stall its 100 ms polls past that, and the look then asks Redis, as it should.
      await strikesOf(relay).copy!.refresh();
      const sent = await relay.commandsOf(async () => {
        expect(await reasonOf(await postCallback(relay, { phone: NUMBER }, { ...from(2 + i), idempotencyKey: `new-${i}` }))).toBe('429 rate_limited 119');
      });
      // The look at a new client comes from the relay's copy of the blocked subjects: no round trip.
      expect(sent['idempotency.has']).toBe(1);
      expect(sent['limits.peek']).toBeUndefined();
      const again = await relay.commandsOf(async () => {
        // The strike is held, not waited for: the client's next look asks Redis, which adds it in.
        // It is written with the others held at most 100 ms later: here at once.
        await postCallback(relay, { phone: 'not a number' }, from(2 + i));
        await strikesOf(relay).flushStrikes();
      });
      expect(again['limits.peek']).toBe(1);
      expect((sent['limits.strike'] ?? 0) + (again['limits.strike'] ?? 0)).toBe(1);
    }
    // Relay a has not refused the number yet either: its limits do, with every look a request makes.
    const refusedByLimits = async () => {
      await postCallback(a, { phone: NUMBER }, { ...from(9), idempotencyKey: 'new-9' });
      await strikesOf(a).flushStrikes();
    };
    expect(Object.keys(await a.commandsOf(refusedByLimits)).sort()).toEqual([
      'idempotency.abandon',
      'idempotency.begin',
      'limits.acquire',
      'limits.consume',
      'limits.peek',
      'limits.release',
      'limits.strike',
      'nevercall.get',
    ]);
    expect(s.sim.calls).toHaveLength(1);
  });

  it('a number put on the never-call list while it cools down is refused 429 while held (at most 3 s), then number_not_allowed on every relay', async () => {
    const s = await embedded();
    const prefix = `nc${++prefixes}:`;
    const [a, b] = [await relayOnRedis(s, prefix), await relayOnRedis(s, prefix)];
    expect((await postCallback(a, { phone: NUMBER }, from(0))).status).toBe(202);
    clock += 1_000;
    for (const relay of [a, b]) expect(await reasonOf(await postCallback(relay, { phone: NUMBER }, from(1)))).toBe('429 rate_limited 119');
    // The owner lists it (what POST /owner/api/leads/<id>/never-call does) on relay a's store.
    await a.stores.neverCall.add(numberHmac(s.config.hash.secret, '+380501234567'), clock);
    for (const relay of [a, b]) expect(await reasonOf(await postCallback(relay, { phone: NUMBER }, from(2)))).toBe('429 rate_limited 119');
    clock += 3_000;
    for (const relay of [a, b, a, b]) expect(await reasonOf(await postCallback(relay, { phone: NUMBER }, from(3)))).toBe('400 number_not_allowed 0');
    expect(s.sim.calls).toHaveLength(1);
  });

  it('a strike Redis cannot take (out of memory) is counted in /metrics; the refusal stands', async () => {
    const { s, own, relay } = await numberCalledOnOwnRedis();
    expect(await reasonOf(await postCallback(relay, { phone: NUMBER }, from(1)))).toBe('429 rate_limited 119');
    const lost = async () => Number(/^dialback_limiter_strikes_lost_total (\d+)/m.exec(await (await fetch(`${relay.url}/metrics`)).text())?.[1]);
    await strikesOf(relay).flushStrikes();
    expect(await lost()).toBe(0);
    const admin = createClient({ url: own.url });
    await admin.connect();
    await admin.configSet('maxmemory', '1');
    try {
      for (let i = 2; i < 7; i++) expect(await reasonOf(await postCallback(relay, { phone: NUMBER }, from(i)))).toBe('429 rate_limited 119');
      // Each refusal's two strikes (the client's, its /24's), neither taken: reported once the
      // strikes held are written (at most 100 ms later; here at once).
      await strikesOf(relay).flushStrikes();
      await expect.poll(lost).toBe(10);
      expect(s.sim.calls).toHaveLength(1);
    } finally {
      await admin.configSet('maxmemory', '0');
      admin.destroy();
    }
  });

  it('Redis gone mid-flood: every answer is a 429 or a clear 503, none a 500, none left hanging', async () => {
    const { s, own, relay } = await numberCalledOnOwnRedis();
    const flood = (first: number) => Promise.all(Array.from({ length: 200 }, (_, i) => postCallback(relay, { phone: NUMBER }, from(first + i))));
    const before = await flood(1);
    expect(before.every((a) => a.status === 429)).toBe(true);
    const during = flood(201);
    await own.kill();
    const answers = [...(await during), ...(await flood(401))];
    const kinds = new Set(await Promise.all(answers.map(async (a) => (a.status === 503 ? `503 ${(await errorOf(a)).code}` : String(a.status)))));
    expect([...kinds].filter((k) => k !== '429' && k !== '503 temporarily_unavailable')).toEqual([]);
    expect(kinds.has('503 temporarily_unavailable')).toBe(true);
    expect(s.sim.calls).toHaveLength(1);
  });
});
