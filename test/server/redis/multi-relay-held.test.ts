// Held calls with three relays as separate processes, one Redis and the simulator: a call booked
// ahead is placed by exactly one relay; and when the relay placing it is killed (kill -9) while
// the service has taken the call but not answered, another relay takes the job over only after its
// lease expired, flagged interrupted, finds the call in the call log and does not ring again. The
// lease is HELD_LEASE_SECONDS (LEASE_SECONDS here rather than the 60 s default: the takeover is
// the same, only sooner).
// Both on one redis-server and on a real 3-primary Redis Cluster (REDIS_CLUSTER=true), where the
// key groups hash to slots on different nodes and every script must stay inside its group's slot.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { connectRedis, type RedisConnection } from '../../../server/src/storage/redis/connection.ts';
import { ORIGIN, postCallback } from '../../support/post-callback.ts';
import { relayFleet } from '../../support/relay-fleet.ts';
import { startRedisCluster } from '../../support/redis-cluster.ts';
import { startRedisServer } from '../../support/redis-server.ts';
import { startRelay, waitUntil, type RelayProcess, untilReady } from '../../support/relay-processes.ts';

/** What the relays are pointed at, and a connection of the test's own to look at the jobs. */
interface SharedRedis {
  env: Record<string, string>;
  connection: RedisConnection;
  stop(): Promise<void>;
}

const quiet = { info() {}, warn() {}, error() {} };
const settings = { prefix: 'held:', commandTimeoutMs: 2_000, connectTimeoutMs: 3_000 };
/** The relays' lease on a claimed call: several of their looks at the store (every 2 s) long. */
const LEASE_SECONDS = 10;
/** How far ahead the call is booked: every relay (ready when it is booked) has looked at the store (every 2 s) before it is due. */
const AHEAD_MS = 4_000;

async function oneRedis(): Promise<SharedRedis> {
  const redis = await startRedisServer();
  const connection = connectRedis({ ...settings, url: redis.url }, { log: quiet });
  return { env: { REDIS_URL: redis.url }, connection, stop: () => redis.stop() };
}

async function redisCluster(): Promise<SharedRedis> {
  const cluster = await startRedisCluster(3);
  const connection = connectRedis({ ...settings, url: cluster.nodes[0]!.url, topology: { kind: 'cluster', seeds: cluster.nodes.map((n) => n.url) } }, { log: quiet });
  return { env: { REDIS_CLUSTER: 'true', REDIS_URL: cluster.seeds }, connection, stop: () => cluster.stop() };
}

const fleet = relayFleet();
let prefixes = 0;

const placed = () => fleet.sim.requests.filter((r) => r.path === '/a/v2').length;

async function book(relay: RelayProcess, phone: string, inMs: number): Promise<string> {
  const res = await postCallback(relay, { phone, consent: true, scheduledFor: new Date(Date.now() + inMs).toISOString() });
  expect(res.status).toBe(202);
  const body = res.json as { status: string; requestId: string };
  expect(body.status).toBe('scheduled');
  return body.requestId;
}

describe.each([
  ['one Redis', oneRedis],
  ['a 3-primary Redis Cluster', redisCluster],
])('held calls with three relays sharing %s', (_name, start) => {
  let redis: SharedRedis;
  let prefix = '';

  beforeAll(async () => {
    redis = await start();
    if (!(await redis.connection.waitReady(10_000))) throw new Error('the test redis did not answer');
  }, 60_000);
  afterAll(async () => {
    await redis?.connection.close();
    await redis?.stop();
  });

  /** `n` relays under a prefix of their own (a fresh deployment per test), each ready. */
  async function startRelays(n: number): Promise<RelayProcess[]> {
    prefix = `held${++prefixes}:`;
    const started = await Promise.all(
      Array.from({ length: n }, () =>
        startRelay({
          ...redis.env,
          REDIS_PREFIX: prefix,
          HASH_SECRET: 'multi-relay-hash-secret-0123456789abcdef',
          CALLTRACKING_BASE_URL: fleet.sim.url,
          CALLTRACKING_AUTH_KEY: fleet.sim.authKey,
          CALLTRACKING_PROJECT_ID: fleet.sim.projectId,
          CALLBACK_CALLER: fleet.sim.officeLine,
          ALLOWED_ORIGINS: ORIGIN,
          CALL_RING_SECONDS: '1',
          UPSTREAM_TIMEOUT_MS: '60000',
          HELD_LEASE_SECONDS: String(LEASE_SECONDS),
          LOG_LEVEL: 'info',
        }),
      ),
    );
    fleet.relays.push(...started);
    // A relay refuses callbacks until its first write check passed (a Cluster: every group's slot).
    for (const relay of started) await untilReady(relay, 'a relay ready on Redis', 20_000);
    return started;
  }

  const jobKey = (id: string) => `${prefix}{${prefix}jobs}:job:${id}`;
  const client = () => redis.connection.client;

  it('a call booked ahead is placed by exactly one relay, once', async () => {
    const three = await startRelays(3);
    const id = await book(three[1]!, '050 765 43 21', AHEAD_MS);
    await waitUntil(() => placed() >= 1, 'the booked call to be placed', AHEAD_MS + 15_000);
    // Every relay looked at the store meanwhile (every 2 s); a little longer for a second call that must not come.
    await new Promise((r) => setTimeout(r, 5_000));
    expect(placed()).toBe(1);
    expect(fleet.sim.calls).toHaveLength(1);
    expect(three.flatMap((r) => r.lines().filter((l) => l.msg === 'held call placed'))).toHaveLength(1);
    const job = await client().hGetAll(jobKey(id));
    // Claims may be more than one (the placer comes back to read the outcome in the call log); calls are not.
    expect(job).toMatchObject({ state: 'completed', interrupted: '0' });
    // A finished job keeps no number and expires; nothing pending is left.
    expect(job.e164).toBeUndefined();
    expect(await client().pTTL(jobKey(id))).toBeGreaterThan(0);
  }, 60_000);

  it('the relay placing it is killed mid-call: another takes over after the lease, finds the call in the log, rings nobody again', async () => {
    const three = await startRelays(3);
    // The service places the call and then never answers: the placing relay waits for the reply.
    fleet.sim.faults.set('callback', { kind: 'hang', handled: true, times: 1 });
    const id = await book(three[0]!, '050 765 43 22', 3_000);
    await waitUntil(() => placed() >= 1, 'the booked call to reach the service', 20_000);
    const owner = await client().hGet(jobKey(id), 'owner');
    const holder = three.find((r) => owner?.includes(`:${r.child.pid}:`));
    expect(holder).toBeDefined();
    const killedAt = Date.now();
    await holder!.kill('SIGKILL');
    const lease = Number(await client().hGet(jobKey(id), 'lease'));
    // Until its lease expires nobody touches the job.
    await waitUntil(async () => (await client().hGet(jobKey(id), 'owner')) !== owner, 'another relay to take the job over', LEASE_SECONDS * 1000 + 30_000);
    expect(Date.now()).toBeGreaterThanOrEqual(lease - 50);
    // Claimed or renewed (every third of the lease) shortly before the kill: more than half of it was left.
    expect(Date.now() - killedAt).toBeGreaterThan((LEASE_SECONDS * 1000) / 2);
    expect(await client().hGet(jobKey(id), 'interrupted')).toBe('1');
    await waitUntil(async () => (await client().hGet(jobKey(id), 'state')) !== 'pending', 'the job to be settled from the call log', 30_000);
    expect(await client().hGetAll(jobKey(id))).toMatchObject({ state: 'completed' });
    expect(placed()).toBe(1);
    expect(fleet.sim.calls).toHaveLength(1);
  }, 90_000);
});
