// Held calls with three relays as separate processes, one Redis and the simulator: a call booked
// 30 s ahead is placed by exactly one relay; and when the relay placing it is killed (kill -9) while
// the service has taken the call but not answered, another relay takes the job over only after its
// lease expired, flagged interrupted, finds the call in the call log and does not ring again.
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { startSimulator } from '../../../server/simulator/index.ts';
import type { Simulator } from '../../../server/simulator/index.ts';
import { connectRedis, type RedisConnection } from '../../../server/src/storage/redis/connection.ts';
import { ORIGIN, postCallback } from '../../support/post-callback.ts';
import { QUICK_CALLS } from '../../support/system.ts';
import { startRedisServer, type RedisServer } from '../../support/redis-server.ts';
import { startRelay, waitUntil, type RelayProcess } from '../../support/relay-processes.ts';

const PREFIX = 'held:';
let redis: RedisServer;
let connection: RedisConnection;
let sim: Simulator & { url: string; close(): Promise<void> };
let relays: RelayProcess[] = [];

beforeAll(async () => {
  redis = await startRedisServer();
  connection = connectRedis({ url: redis.url, prefix: PREFIX, commandTimeoutMs: 2_000, connectTimeoutMs: 3_000 }, { log: { info() {}, warn() {}, error() {} } });
  await connection.waitReady(5_000);
  sim = (await startSimulator({ port: 0, host: '127.0.0.1', timing: QUICK_CALLS })) as typeof sim;
});
afterEach(async () => {
  await Promise.all(relays.map((r) => r.kill()));
  relays = [];
  sim.reset();
  await connection.client.flushAll();
});
afterAll(async () => {
  await connection?.close();
  await sim?.close();
  await redis?.stop();
});

async function startRelays(n: number): Promise<RelayProcess[]> {
  const started = await Promise.all(
    Array.from({ length: n }, () =>
      startRelay({
        REDIS_URL: redis.url,
        REDIS_PREFIX: PREFIX,
        HASH_SECRET: 'multi-relay-hash-secret-0123456789abcdef',
        CALLTRACKING_BASE_URL: sim.url,
        CALLTRACKING_AUTH_KEY: sim.authKey,
        CALLTRACKING_PROJECT_ID: sim.projectId,
        CALLBACK_CALLER: sim.officeLine,
        ALLOWED_ORIGINS: ORIGIN,
        CALL_RING_SECONDS: '1',
        UPSTREAM_TIMEOUT_MS: '60000',
        LOG_LEVEL: 'info',
      }),
    ),
  );
  relays.push(...started);
  return started;
}

const placed = () => sim.requests.filter((r) => r.path === '/a/v2').length;

async function book(relay: RelayProcess, phone: string, inMs: number): Promise<string> {
  const res = await postCallback(relay, { phone, consent: true, scheduledFor: new Date(Date.now() + inMs).toISOString() });
  expect(res.status).toBe(202);
  const body = res.json as { status: string; requestId: string };
  expect(body.status).toBe('scheduled');
  return body.requestId;
}

const jobKey = (id: string) => `${PREFIX}{${PREFIX}jobs}:job:${id}`;

describe('held calls with three relays sharing one Redis', () => {
  it('a call booked 30 s ahead is placed by exactly one relay, once', async () => {
    const three = await startRelays(3);
    const id = await book(three[1]!, '050 765 43 21', 30_000);
    await waitUntil(() => placed() >= 1, 'the booked call to be placed', 45_000);
    // Every relay looked at the store meanwhile (every 2 s); a little longer for a second call that must not come.
    await new Promise((r) => setTimeout(r, 5_000));
    expect(placed()).toBe(1);
    expect(sim.calls).toHaveLength(1);
    expect(three.flatMap((r) => r.lines().filter((l) => l.msg === 'held call placed'))).toHaveLength(1);
    const job = await connection.client.hGetAll(jobKey(id));
    // Claims may be more than one (the placer comes back to read the outcome in the call log); calls are not.
    expect(job).toMatchObject({ state: 'completed', interrupted: '0' });
    // A finished job keeps no number and expires; nothing pending is left.
    expect(job.e164).toBeUndefined();
    expect(await connection.client.pTTL(jobKey(id))).toBeGreaterThan(0);
  }, 70_000);

  it('the relay placing it is killed mid-call: another takes over after the lease, finds the call in the log, rings nobody again', async () => {
    const three = await startRelays(3);
    // The service places the call and then never answers: the placing relay waits for the reply.
    sim.faults.set('callback', { kind: 'hang', handled: true, times: 1 });
    const id = await book(three[0]!, '050 765 43 22', 3_000);
    await waitUntil(() => placed() >= 1, 'the booked call to reach the service', 20_000);
    const owner = await connection.client.hGet(jobKey(id), 'owner');
    const holder = three.find((r) => owner?.includes(`:${r.child.pid}:`));
    expect(holder).toBeDefined();
    const killedAt = Date.now();
    await holder!.kill('SIGKILL');
    const lease = Number(await connection.client.hGet(jobKey(id), 'lease'));
    // Until its lease expires nobody touches the job.
    await waitUntil(async () => (await connection.client.hGet(jobKey(id), 'owner')) !== owner, 'another relay to take the job over', 90_000);
    expect(Date.now()).toBeGreaterThanOrEqual(lease - 50);
    expect(Date.now() - killedAt).toBeGreaterThan(30_000);
    expect(await connection.client.hGet(jobKey(id), 'interrupted')).toBe('1');
    await waitUntil(async () => (await connection.client.hGet(jobKey(id), 'state')) !== 'pending', 'the job to be settled from the call log', 30_000);
    expect(await connection.client.hGetAll(jobKey(id))).toMatchObject({ state: 'completed' });
    expect(placed()).toBe(1);
    expect(sim.calls).toHaveLength(1);
  }, 150_000);
});
