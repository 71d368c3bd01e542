// `node server/src/main.ts --check`, as an operator runs it before the first visitor: against the
// simulator standing in for the service (all pass), the service refusing the key (403), a service
// that is not there, a service whose clock is minutes apart, Redis that evicts keys or lacks the
// replicas asked for, and settings a relay on the internet must not start with.
import { spawn } from 'node:child_process';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSimulator } from '../../../server/simulator/index.ts';
import { deadUrl } from '../../support/listen.ts';
import { startRedisServer, type RedisServer } from '../../support/redis-server.ts';
import { tempDataDir } from '../../support/crash.ts';
import { COMPILE_CACHE_ENV } from '../../support/child-processes.ts';

type Sim = Awaited<ReturnType<typeof startSimulator>> & { url: string; close(): Promise<void> };

interface Run {
  code: number | null;
  out: string;
  err: string;
}

function check(env: Record<string, string>): Promise<Run> {
  const child = spawn(process.execPath, ['server/src/main.ts', '--check'], {
    env: { PATH: process.env.PATH, HOME: process.env.HOME, ...COMPILE_CACHE_ENV, DATA_DIR: tempDataDir(), ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  let err = '';
  child.stdout.on('data', (d) => (out += d));
  child.stderr.on('data', (d) => (err += d));
  return new Promise((resolve) => child.once('exit', (code) => resolve({ code, out, err })));
}

/** The line of check `name`: `ok    service …` or `FAIL  service …`. */
const lineOf = (run: Run, name: string) => run.out.split('\n').find((l) => new RegExp(`^(ok  |FAIL)  ${name} `).test(l)) ?? `(no ${name} line in: ${run.out}${run.err})`;

let sim: Sim;
let redis: RedisServer;
let service: Record<string, string>;

beforeAll(async () => {
  sim = (await startSimulator({ port: 0, host: '127.0.0.1' })) as Sim;
  redis = await startRedisServer({ persistent: false });
  service = {
    CALLTRACKING_BASE_URL: sim.url,
    CALLTRACKING_AUTH_KEY: sim.authKey,
    CALLTRACKING_PROJECT_ID: sim.projectId,
    CALLBACK_CALLER: sim.officeLine,
    ALLOWED_ORIGINS: 'https://shop.example',
    HASH_SECRET: 'preflight-test-hash-secret-0123456789abcdef',
  };
});
afterAll(async () => {
  await sim?.close();
  await redis?.stop();
});

describe('the pre-flight (--check)', () => {
  it('passes every check against the simulator, with one line each, and exits 0', async () => {
    const run = await check(service);
    expect(run.code, run.out + run.err).toBe(0);
    for (const name of ['service', 'clock', 'store', 'public-url', 'trusted-proxies', 'allowed-origins', 'owner-token']) expect(lineOf(run, name)).toMatch(/^ok {4}/);
    expect(lineOf(run, 'service')).toContain('2 SIP account(s) online');
    expect(run.out).toContain('all 7 checks passed');
    expect(run.out + run.err).not.toContain(sim.authKey);
    // Only a read-only question reached the service.
    expect(sim.requests.map((r) => `${r.method} ${r.path}`)).toEqual(['GET /sipstatus/online']);
  });

  it('fails when the service refuses the Auth-key (403), and says which setting to fix', async () => {
    const run = await check({ ...service, CALLTRACKING_AUTH_KEY: 'not-the-projects-key' });
    expect(run.code).toBe(1);
    expect(lineOf(run, 'service')).toMatch(/^FAIL {2}service .*refused the Auth-key \(HTTP 403\).*CALLTRACKING_AUTH_KEY/);
    expect(lineOf(run, 'clock')).toMatch(/^ok/);
    expect(run.out).toContain('1 of 7 checks failed');
    expect(run.out).not.toContain('not-the-projects-key');
  });

  it('fails when there is no service at all', async () => {
    const run = await check({ ...service, CALLTRACKING_BASE_URL: await deadUrl() });
    expect(run.code).toBe(1);
    expect(lineOf(run, 'service')).toMatch(/^FAIL {2}service +cannot connect to CALLTRACKING_BASE_URL/);
    expect(lineOf(run, 'clock')).toMatch(/^FAIL/);
  });

  it("fails when this machine's clock is minutes apart from the service's", async () => {
    const ahead = (await startSimulator({ port: 0, host: '127.0.0.1', now: () => new Date(Date.now() - 5 * 60_000) })) as Sim;
    try {
      const run = await check({ ...service, CALLTRACKING_BASE_URL: ahead.url });
      expect(run.code).toBe(1);
      expect(lineOf(run, 'clock')).toMatch(/^FAIL {2}clock +this machine's clock is 30\d s ahead of the service's/);
    } finally {
      await ahead.close();
    }
  });

  it('fails a settings fallback against a real service (the simulator’s project id)', async () => {
    const { CALLTRACKING_PROJECT_ID: _, ...withoutProject } = service;
    const run = await check(withoutProject);
    expect(run.code).toBe(1);
    expect(lineOf(run, 'settings')).toMatch(/^FAIL {2}settings +CALLTRACKING_PROJECT_ID is not set/);
  });

  it('checks Redis: passes noeviction, fails allkeys-lru and replicas that are not there', async () => {
    const lru = await startRedisServer({ persistent: false, config: { 'maxmemory-policy': 'allkeys-lru' } });
    const deadRedis = `redis://127.0.0.1:${new URL(await deadUrl()).port}`;
    // Four processes at once, not one after another: each is mostly a start of node and a wait (the
    // one for no Redis waits out its connection's 3 s).
    const [good, replicas, run, gone] = await Promise.all([
      check({ ...service, REDIS_URL: redis.url }),
      check({ ...service, REDIS_URL: redis.url, REDIS_MIN_REPLICAS: '1' }),
      check({ ...service, REDIS_URL: lru.url }),
      check({ ...service, REDIS_URL: deadRedis }),
    ]).finally(() => lru.stop());
    expect(good.code, good.out + good.err).toBe(0);
    expect(lineOf(good, 'redis')).toMatch(/^ok {4}redis +connected \(standalone/);
    expect(lineOf(good, 'redis-eviction')).toMatch(/^ok/);
    expect(lineOf(good, 'redis-replicas')).toMatch(/^ok/);

    expect(replicas.code).toBe(1);
    expect(lineOf(replicas, 'redis-replicas')).toMatch(/^FAIL {2}redis-replicas +REDIS_MIN_REPLICAS is 1 but a primary has 0 replica/);

    expect(run.code).toBe(1);
    expect(lineOf(run, 'redis-eviction')).toMatch(/^FAIL {2}redis-eviction +maxmemory-policy is allkeys-lru: .*set maxmemory-policy noeviction/);

    expect(gone.code).toBe(1);
    expect(lineOf(gone, 'redis')).toMatch(/^FAIL {2}redis +cannot reach Redis/);
  }, 60_000);

  it('fails the settings a relay on the internet must not start with', async () => {
    const [run, fixed, weak] = await Promise.all([
      check({ ...service, PUBLIC_URL: 'http://calls.example.com', ALLOWED_ORIGINS: 'http://shop.example.com' }),
      check({ ...service, PUBLIC_URL: 'https://calls.example.com', TRUSTED_PROXIES: '127.0.0.1', OWNER_TOKEN: 'owner_0123456789abcdef0123456789abcdef' }),
      check({ ...service, OWNER_TOKEN: 'a'.repeat(40) }),
    ]);
    expect(run.code).toBe(1);
    expect(lineOf(run, 'public-url')).toMatch(/^FAIL {2}public-url +PUBLIC_URL is http:\/\/calls\.example\.com/);
    expect(lineOf(run, 'trusted-proxies')).toMatch(/^FAIL {2}trusted-proxies +the relay listens on 127\.0\.0\.1 and is reached as calls\.example\.com.*TRUSTED_PROXIES/);
    expect(lineOf(run, 'allowed-origins')).toMatch(/^FAIL/);

    expect(fixed.code, fixed.out + fixed.err).toBe(0);
    expect(lineOf(fixed, 'owner-token')).toMatch(/^ok {4}owner-token +38 characters/);

    expect(weak.code).toBe(1);
    expect(weak.out + weak.err).toMatch(/OWNER_TOKEN/);
  });
});
