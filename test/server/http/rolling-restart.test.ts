// A rolling restart as operators do it: real nginx (the example config from docs/examples, with
// this test's addresses) in front of two relay processes sharing one Redis; under a steady load of
// callback requests (each with its Idempotency-Key, as the widget sends them) and status reads,
// each relay in turn gets SIGTERM and is started again on its port, twice round. Every request must
// get an answer (no connection reset, no nginx error page: a 5xx may only be the relay's own JSON),
// every accepted callback must reach the service, and no number may be rung twice.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSimulator, type Simulator } from '../../../server/simulator/index.ts';
import { freePort } from '../../support/listen.ts';
import { relaysExample, startNginx, type Nginx } from '../../support/nginx.ts';
import { ORIGIN } from '../../support/post-callback.ts';
import { startRedisServer, type RedisServer } from '../../support/redis-server.ts';
import { startRelay, waitUntil, type RelayProcess } from '../../support/relay-processes.ts';
import { QUICK_CALLS } from '../../support/system.ts';

interface Outcome {
  phone: string;
  status: number;
  json: boolean;
  code?: string;
  /** The request failed below HTTP (reset, refused): the client got no answer at all. */
  failure?: string;
}

let redis: RedisServer;
let sim: Simulator & { url: string; close(): Promise<void> };
let nginx: Nginx | undefined;
const relays: RelayProcess[] = [];

beforeAll(async () => {
  redis = await startRedisServer();
  sim = (await startSimulator({ port: 0, host: '127.0.0.1', timing: QUICK_CALLS })) as typeof sim;
});
afterAll(async () => {
  await Promise.all(relays.map((r) => r.kill()));
  await nginx?.stop();
  await sim?.close();
  await redis?.stop();
});

describe('a rolling restart through nginx', () => {
  it('answers every request, loses no accepted callback and rings no number twice', async () => {
    const ports = [await freePort(), await freePort()];
    const env = (port: number) => ({
      PORT: String(port),
      REDIS_URL: redis.url,
      HASH_SECRET: 'rolling-restart-hash-secret-0123456789',
      CALLTRACKING_BASE_URL: sim.url,
      CALLTRACKING_AUTH_KEY: sim.authKey,
      CALLTRACKING_PROJECT_ID: sim.projectId,
      CALLBACK_CALLER: sim.officeLine,
      ALLOWED_ORIGINS: ORIGIN,
      TRUSTED_PROXIES: '127.0.0.1',
      LOG_LEVEL: 'info', // startRelay reads the port from the 'relay listening' line
      LIMIT_NETWORK_IPV4_24_HOURLY: '0',
      LIMIT_NETWORK_IPV4_24_DAILY: '0',
      SURGE_CALLS: '0',
      LIMIT_PREFIX_RATE: '65000', // every number here shares its first digits
      SITE_HOURLY_CAP: '65000',
      SITE_DAILY_CAP: '65000',
    });
    const ready = async (relay: RelayProcess) => (await fetch(`${relay.url}/readyz`).catch(() => null))?.status === 200;
    for (const port of ports) relays.push(await startRelay(env(port)));
    for (const relay of relays) await waitUntil(() => ready(relay), 'the relay to be ready');
    nginx = await startNginx((port) => relaysExample(port, ports, { allow: '127.0.0.1' }));
    const front = nginx.url;

    let sent = 0;
    let loading = true;
    const outcomes: Outcome[] = [];
    const statusReads: Array<number | string> = [];
    const callback = async (i: number) => {
      const phone = `+38050${String(1_000_000 + i)}`;
      try {
        const res = await fetch(`${front}/api/callback`, {
          method: 'POST',
          headers: {
            origin: ORIGIN,
            'content-type': 'application/json',
            'idempotency-key': crypto.randomUUID(),
            'x-forwarded-for': `198.51.${Math.floor(i / 250) % 250}.${(i % 250) + 1}`,
          },
          body: JSON.stringify({ phone, consent: true }),
        });
        const text = await res.text();
        const json = (res.headers.get('content-type') ?? '').startsWith('application/json');
        outcomes.push({ phone, status: res.status, json, code: json && res.status >= 400 ? (JSON.parse(text) as { error: { code: string } }).error.code : undefined });
      } catch (err) {
        outcomes.push({ phone, status: 0, json: false, failure: String((err as Error).cause ?? err) });
      }
    };
    // A steady load, not a flood: each client pauses 50 ms between requests, so relays start
    // again in their usual time on this machine's two cores.
    const worker = async (w: number) => {
      while (loading) {
        await new Promise((r) => setTimeout(r, 50));
        await callback(sent++);
        if (w === 0)
          statusReads.push(
            await fetch(`${front}/api/status`, { headers: { origin: ORIGIN } }).then(
              (r) => r.status,
              (err) => String(err),
            ),
          );
      }
    };
    const load = Promise.all(Array.from({ length: 6 }, (_, w) => worker(w)));

    let restarts = 0;
    for (let round = 0; round < 2; round++) {
      for (let i = 0; i < relays.length; i++) {
        await waitUntil(() => sent >= 40 * (restarts + 1), 'some load on the relays');
        await relays[i]!.kill('SIGTERM');
        expect(relays[i]!.child.exitCode).toBe(0);
        relays[i] = await startRelay(env(ports[i]!));
        await waitUntil(() => ready(relays[i]!), 'the restarted relay to be ready');
        restarts++;
      }
    }
    await waitUntil(() => sent >= 40 * (restarts + 1), 'load on the restarted relays');
    loading = false;
    await load;

    const failures = outcomes.filter((o) => o.failure);
    const foreign5xx = outcomes.filter((o) => o.status >= 500 && !(o.status === 503 && o.json));
    expect({ failures, foreign5xx }).toEqual({ failures: [], foreign5xx: [] });
    expect(statusReads.filter((s) => s !== 200)).toEqual([]);
    const accepted = outcomes.filter((o) => o.status === 202);
    expect(accepted.length).toBeGreaterThan(outcomes.length * 0.9);
    // Every accepted callback reached the service once; nothing else reached it.
    const callsTo = (phone: string) => sim.calls.filter((c) => c.caller === phone.slice(1)).length;
    await waitUntil(() => accepted.every((o) => callsTo(o.phone) >= 1), 'every accepted call in the call log');
    expect(outcomes.filter((o) => callsTo(o.phone) > 1)).toEqual([]);
    expect(sim.calls).toHaveLength(accepted.length);
  }, 120_000);
});
