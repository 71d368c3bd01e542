// Three relays as separate processes (node server/src/main.ts), one private redis-server and one
// standalone simulator: the relays act as one. Every call count is the simulator's own.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSimulator } from '../../../server/simulator/index.ts';
import { ORIGIN, postCallback } from '../../support/post-callback.ts';
import { relayFleet, type StandaloneSimulator } from '../../support/relay-fleet.ts';
import { startRedisServer, type RedisServer } from '../../support/redis-server.ts';
import { createClient } from 'redis';
import { startRelay, waitUntil, type RelayProcess, untilReady } from '../../support/relay-processes.ts';

let redis: RedisServer;
const fleet = relayFleet();
let prefixes = 0;

beforeAll(async () => {
  redis = await startRedisServer();
});
afterAll(async () => {
  await redis?.stop();
});

/** The prefix of the relays started last. */
let lastPrefix = '';

/** `n` relays sharing Redis under a prefix of their own (a fresh deployment per test). */
async function startRelays(
  n: number,
  env: Record<string, string> = {},
  service: { url: string; authKey: string; projectId: string; officeLine: string } = fleet.sim,
): Promise<RelayProcess[]> {
  const prefix = `mr${++prefixes}:`;
  lastPrefix = prefix;
  const started = await Promise.all(
    Array.from({ length: n }, () =>
      startRelay({
        REDIS_URL: redis.url,
        REDIS_PREFIX: prefix,
        HASH_SECRET: 'multi-relay-hash-secret-0123456789abcdef',
        CALLTRACKING_BASE_URL: service.url,
        CALLTRACKING_AUTH_KEY: service.authKey,
        CALLTRACKING_PROJECT_ID: service.projectId,
        CALLBACK_CALLER: service.officeLine,
        ALLOWED_ORIGINS: ORIGIN,
        TRUSTED_PROXIES: '127.0.0.1',
        LOG_LEVEL: 'info',
        // These tests are about the shared state: the network and surge limits stay out of the way.
        LIMIT_NETWORK_IPV4_24_HOURLY: '0',
        LIMIT_NETWORK_IPV4_24_DAILY: '0',
        SURGE_CALLS: '0',
        ...env,
      }),
    ),
  );
  fleet.relays.push(...started);
  return started;
}

/** A distinct client address per i (distinct /24s). */
const clientIp = (i: number) => `198.${18 + (Math.floor(i / 65_000) % 2)}.${Math.floor(i / 250) % 250}.${(i % 250) + 1}`;
const phone = (i: number) => `050 ${String(1_000_000 + i).padStart(7, '0')}`;

const placed = () => fleet.sim.requests.filter((r) => r.path === '/a/v2').length;

describe('three relays sharing one Redis', () => {
  it('300 parallel requests for one number spread over three relays ring it exactly once', async () => {
    // What is tested is the one call, not Redis's speed: on a machine loaded past ~18 a command of
    // this burst took longer than the default 1 s deadline, and its request was answered 503 (as it
    // must be). A deadline no load here reaches keeps every other answer the limit's 429.
    const three = await startRelays(3, { REDIS_TIMEOUT_MS: '15000' });
    const answers = await Promise.all(Array.from({ length: 300 }, (_, i) => postCallback(three[i % 3]!, { consent: true, phone: '050 123 45 67' }, { forwardedFor: clientIp(i) })));
    expect(answers.filter((a) => a.status === 202)).toHaveLength(1);
    expect(answers.filter((a) => a.status !== 202).every((a) => a.status === 429 && a.code === 'rate_limited')).toBe(true);
    expect(placed()).toBe(1);
    expect(fleet.sim.calls).toHaveLength(1);
  });

  it('holds the per-client limit across relays: one client, many numbers, all relays — three calls', async () => {
    const three = await startRelays(3, { LIMIT_CLIENT_NUMBERS_DAILY: '20' });
    const statuses: number[] = [];
    for (let i = 0; i < 9; i++) statuses.push((await postCallback(three[i % 3]!, { consent: true, phone: phone(i) }, { forwardedFor: '203.0.113.7' })).status);
    expect(statuses.filter((s) => s === 202)).toHaveLength(3);
    expect(statuses.slice(3).every((s) => s === 429)).toBe(true);
    expect(placed()).toBe(3);
  });

  it('replays an Idempotency-Key on another relay with the first answer and no second call', async () => {
    const [a, b, c] = await startRelays(3);
    const options = { idempotencyKey: 'k-0123456789', forwardedFor: clientIp(1) };
    const first = await postCallback(a!, { consent: true, phone: phone(1) }, options);
    expect(first.status).toBe(202);
    const firstBody = first.json;
    for (const relay of [b!, c!]) {
      const again = await postCallback(relay, { consent: true, phone: phone(1) }, options);
      expect(again.status).toBe(202);
      expect(again.headers.get('idempotent-replayed')).toBe('true');
      expect(again.json).toEqual(firstBody);
    }
    // The same key with another body is refused on any relay.
    expect((await postCallback(c!, { consent: true, phone: phone(2) }, options)).status).toBe(422);
    expect(placed()).toBe(1);
  });

  it('knows a booked call on every relay: the number cannot be booked twice, any relay shows and cancels it', async () => {
    const [a, b, c] = await startRelays(3);
    const scheduledFor = new Date(Date.now() + 2 * 3_600_000).toISOString();
    const booked = await postCallback(a!, { consent: true, phone: phone(900), scheduledFor }, { forwardedFor: clientIp(900) });
    expect(booked.status).toBe(202);
    const { requestId, cancelToken, status } = booked.json as { requestId: string; cancelToken: string; status: string };
    expect(status).toBe('scheduled');
    const again = await postCallback(b!, { consent: true, phone: phone(900), scheduledFor }, { forwardedFor: clientIp(901) });
    expect(again.status).toBe(409);
    expect(again.json.error!.code).toBe('already_scheduled');
    const seen = await fetch(`${c!.url}/api/callback/${requestId}`, { headers: { origin: ORIGIN } });
    expect(((await seen.json()) as { outcome: string }).outcome).toBe('scheduled');
    expect((await fetch(`${b!.url}/api/callback/${requestId}`, { method: 'DELETE', headers: { origin: ORIGIN, 'cancel-token': 'wrong' } })).status).toBe(403);
    const cancelled = await fetch(`${c!.url}/api/callback/${requestId}`, { method: 'DELETE', headers: { origin: ORIGIN, 'cancel-token': cancelToken } });
    expect(cancelled.status).toBe(200);
    expect(((await (await fetch(`${a!.url}/api/callback/${requestId}`, { headers: { origin: ORIGIN } })).json()) as { outcome: string }).outcome).toBe('cancelled');
    expect(placed()).toBe(0);

    // Nothing is pending now: every key the relays wrote (limits, the cancelled job, consent
    // records, shared polls and locks) expires on its own.
    const client = createClient({ url: redis.url });
    await client.connect();
    try {
      const keys: string[] = [];
      for await (const batch of client.scanIterator({ MATCH: `${lastPrefix}*`, COUNT: 1000 })) keys.push(...batch);
      expect(keys.some((k) => k.includes('{' + lastPrefix + 'jobs}:job:'))).toBe(true);
      const without = [];
      for (const key of keys) if ((await client.pTTL(key)) < 0) without.push(key);
      expect(without).toEqual([]);
    } finally {
      await client.close();
    }
  });

  it('trips the site breaker once for all relays: one ALERT line, every relay refusing', async () => {
    const three = await startRelays(3, { SITE_HOURLY_CAP: '3', LIMIT_PREFIX_RATE: '100' });
    const statuses: number[] = [];
    for (let i = 0; i < 12; i++) statuses.push((await postCallback(three[i % 3]!, { consent: true, phone: phone(500 + i) }, { forwardedFor: clientIp(500 + i) })).status);
    expect(statuses.filter((s) => s === 202)).toHaveLength(3);
    expect(statuses.slice(3).every((s) => s === 503)).toBe(true);
    expect(placed()).toBe(3);
    await new Promise((r) => setTimeout(r, 200)); // the alert is logged after the shared check
    const alerts = three.flatMap((r) => r.lines().filter((l) => String(l.msg).startsWith('ALERT site callback cap reached')));
    expect(alerts).toHaveLength(1);
  });

  it('with three relays the service sees no more SIP-status and call-log requests than with one', async () => {
    // Calls that stay in progress, so every widget keeps asking about its call for the whole run.
    const slow = (await startSimulator({ port: 0, host: '127.0.0.1', timing: { agentAnswerMs: 10, visitorRingMs: 10, talkMs: 120_000 } })) as StandaloneSimulator;
    try {
      await compare(slow);
    } finally {
      await Promise.all(fleet.relays.splice(0).map((r) => r.kill()));
      await slow.close();
    }
  });
});

async function compare(service: StandaloneSimulator) {
  const count = (path: string) => service.requests.filter((r) => r.path.startsWith(path)).length;
  const env = { STATUS_CACHE_MS: '300', OUTCOME_POLL_MS: '300' };
  /** Floods /api/status and the progress of one call per relay for `ms`; what the service saw. */
  async function load(group: RelayProcess[], ms: number) {
    const ids: Array<[RelayProcess, string]> = [];
    for (const [i, relay] of group.entries()) {
      const res = await postCallback(relay, { consent: true, phone: phone(100 + i + group.length * 10) }, { forwardedFor: clientIp(100 + i + group.length * 10) });
      expect(res.status).toBe(202);
      ids.push([relay, res.json.requestId!]);
    }
    const before = { sip: count('/sipstatus'), log: count('/calls/list') };
    const end = Date.now() + ms;
    await Promise.all(
      group.flatMap((relay) => [
        (async () => {
          while (Date.now() < end) await fetch(`${relay.url}/api/status`).then((r) => r.arrayBuffer());
        })(),
        ...ids
          .filter(([r]) => r === relay)
          .map(async ([, id]) => {
            while (Date.now() < end) {
              await fetch(`${relay.url}/api/callback/${id}`, { headers: { origin: ORIGIN } }).then((r) => r.arrayBuffer());
              await new Promise((r) => setTimeout(r, 20));
            }
          }),
      ]),
    );
    return { sip: count('/sipstatus') - before.sip, log: count('/calls/list') - before.log };
  }
  const one = await startRelays(1, env, service);
  const alone = await load(one, 3_000);
  await one[0]!.kill();
  const three = await startRelays(3, env, service);
  const shared = await load(three, 3_000);
  // About one poll (two SIP requests, one call-log request) per 300 ms period either way; the
  // edges of a 3 s run may give a period or two more. Without sharing, three relays cost ~3x.
  expect(alone.sip).toBeGreaterThan(8);
  expect(alone.log).toBeGreaterThan(4);
  expect(shared.sip).toBeLessThanOrEqual(Math.max(alone.sip, 22) + 4);
  expect(shared.log).toBeLessThanOrEqual(Math.max(alone.log, 11) + 2);
}

describe('Redis stopped and restarted under load', () => {
  it('places no call without its limits, none twice, answers 503 with Retry-After meanwhile, and resumes by itself', async () => {
    const three = await startRelays(3, { LIMIT_PREFIX_RATE: '65000', SITE_HOURLY_CAP: '65000', SITE_DAILY_CAP: '65000' });
    let i = 0;
    const results: Array<{ status: number; code?: string; retryAfter: string | null; n: number; during: boolean }> = [];
    let down = false;
    let stop = false;
    const workers = three.map(async (relay) => {
      while (!stop) {
        const n = i++;
        const during = down;
        const res = await postCallback(relay, { consent: true, phone: phone(n) }, { forwardedFor: clientIp(n) }).catch(() => null);
        if (!res) continue;
        const body = res.json;
        results.push({ status: res.status, ...(body.error && { code: body.error.code }), retryAfter: res.headers.get('retry-after'), n, during });
        await new Promise((r) => setTimeout(r, 10));
      }
    });
    await waitUntil(() => results.filter((r) => r.status === 202).length >= 10, 'calls before the outage');
    await redis.kill();
    down = true;
    const callsAtOutage = placed();
    // While Redis is down: every new callback is refused 503 temporarily_unavailable with Retry-After.
    await waitUntil(() => results.filter((r) => r.during && r.status === 503).length >= 15, 'refusals during the outage');
    for (const relay of three) {
      expect((await fetch(`${relay.url}/readyz`)).status).toBe(503);
      const status = await fetch(`${relay.url}/api/status`);
      expect(status.status).toBe(200);
      const metrics = await (await fetch(`${relay.url}/metrics`)).text();
      expect(metrics).toMatch(/^dialback_redis_up 0$/m);
      expect(metrics).toMatch(/^dialback_redis_errors_total\{operation="[a-z.]+",outcome="offline"\} [1-9]/m);
    }
    // In-flight requests at the moment of the kill may still have been placed; after that, none.
    const settled = placed();
    await new Promise((r) => setTimeout(r, 500));
    expect(placed()).toBe(settled);
    expect(settled - callsAtOutage).toBeLessThanOrEqual(3);
    const refused = results.filter((r) => r.during && r.status === 503);
    expect(refused.every((r) => r.code === 'temporarily_unavailable' && r.retryAfter !== null)).toBe(true);
    for (const relay of three) expect(relay.lines().filter((l) => String(l.msg).startsWith('ALERT redis unreachable'))).toHaveLength(1);

    await redis.restart();
    down = false;
    const acceptedBefore = results.filter((r) => r.status === 202).length;
    await waitUntil(() => results.filter((r) => r.status === 202).length >= acceptedBefore + 15, 'calls after Redis returned');
    for (const relay of three) {
      await untilReady(relay, 'ready again');
      expect(await (await fetch(`${relay.url}/metrics`)).text()).toMatch(/^dialback_redis_up 1$/m);
    }
    stop = true;
    await Promise.all(workers);
    await new Promise((r) => setTimeout(r, 200));

    // Every call the service took was answered 202 to someone, and no number rang twice.
    const accepted = results.filter((r) => r.status === 202);
    expect(placed()).toBe(accepted.length);
    const callers = fleet.sim.calls.map((c) => c.caller);
    expect(new Set(callers).size).toBe(callers.length);
    expect(results.every((r) => r.status === 202 || r.status === 503)).toBe(true);
    for (const relay of three) expect(relay.lines().filter((l) => l.msg === 'redis reachable again')).toHaveLength(1);
  });
});
