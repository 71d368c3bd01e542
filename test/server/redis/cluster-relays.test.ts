// Three relays (node server/src/main.ts) on a real 3-primary Redis Cluster (REDIS_CLUSTER=true,
// REDIS_URL the nodes): the key groups live in slots on different nodes, and the relays act as one
// as on a single Redis. Then one node is killed under load: callbacks whose state it holds are
// refused 503 and the relays say not ready; when it is back they resume, no number rung twice.
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { startSimulator, type Simulator } from '../../../server/simulator/index.ts';
import { postCallback } from '../../support/post-callback.ts';
import { startRedisCluster, type RedisCluster } from '../../support/redis-cluster.ts';
import { clientIp, phoneOf, relayEnv, startRelay, waitUntil, type RelayProcess, untilReady } from '../../support/relay-processes.ts';
import { QUICK_CALLS } from '../../support/system.ts';

let cluster: RedisCluster;
let sim: Simulator & { url: string; close(): Promise<void> };
let relays: RelayProcess[] = [];
let prefixes = 0;

beforeAll(async () => {
  [cluster, sim] = await Promise.all([startRedisCluster(3, true), startSimulator({ port: 0, host: '127.0.0.1', timing: QUICK_CALLS }) as Promise<typeof sim>]);
}, 60_000);
afterEach(async () => {
  await Promise.all(relays.map((r) => r.kill()));
  relays = [];
});
afterAll(async () => {
  await sim?.close();
  await cluster?.stop();
});

async function startRelays(n: number): Promise<RelayProcess[]> {
  const prefix = `cl${++prefixes}:`;
  relays = await Promise.all(
    Array.from({ length: n }, () =>
      startRelay(
        relayEnv(sim, {
          REDIS_CLUSTER: 'true',
          REDIS_URL: cluster.seeds,
          REDIS_PREFIX: prefix,
          // A flood on a loaded test machine: a deadline no Redis step comes near.
          REDIS_TIMEOUT_MS: '3000',
          REDIS_CHECK_MS: '200',
          LIMIT_PREFIX_RATE: '65000',
          SITE_HOURLY_CAP: '65000',
          SITE_DAILY_CAP: '65000',
        }),
      ),
    ),
  );
  for (const relay of relays) await untilReady(relay, 'ready on the cluster', 20_000);
  return relays;
}

const rungOnce = () => {
  const callers = sim.calls.map((c) => c.caller);
  return new Set(callers).size === callers.length;
};

describe('three relays on a 3-primary Redis Cluster', { timeout: 120_000 }, () => {
  it('90 parallel requests for one number over three relays ring it once; an Idempotency-Key replays on another relay', async () => {
    const three = await startRelays(3);
    const before = sim.calls.length;
    const answers = await Promise.all(Array.from({ length: 90 }, (_, i) => postCallback(three[i % 3]!, { consent: true, phone: '050 123 45 67' }, { forwardedFor: clientIp(i) })));
    const statuses = answers.map((a) => `${a.status} ${a.code ?? ''}`);
    // On failure, what came back and the first relay's warnings say why.
    const why = JSON.stringify({
      statuses: [...new Set(statuses)],
      warnings: three[0]!
        .lines()
        .filter((l) => l.level !== 'info' && l.level !== 30)
        .slice(0, 5),
    });
    expect(
      answers.filter((a) => a.status === 202),
      why,
    ).toHaveLength(1);
    expect(
      answers.filter((a) => a.status !== 202).every((a) => a.status === 429),
      why,
    ).toBe(true);
    const options = { idempotencyKey: 'cluster-key-0001', forwardedFor: clientIp(1000) };
    const first = await postCallback(three[0]!, { consent: true, phone: phoneOf(1000) }, options);
    expect(first.status).toBe(202);
    const again = await postCallback(three[2]!, { consent: true, phone: phoneOf(1000) }, options);
    expect(again.headers.get('idempotent-replayed')).toBe('true');
    expect(again.json).toEqual(first.json);
    await new Promise((r) => setTimeout(r, 200));
    expect(sim.calls.length - before).toBe(2);
    expect(rungOnce()).toBe(true);
  });

  it('a node killed under load: 503 and not ready meanwhile, back by itself, nothing rung twice, every 202 a call', async () => {
    const three = await startRelays(3);
    const before = sim.calls.length;
    const results: Array<{ status: number; at: number }> = [];
    let next = 5_000;
    let stop = false;
    const workers = three.map(async (relay) => {
      while (!stop) {
        const i = next++;
        const res = await postCallback(relay, { consent: true, phone: phoneOf(i) }, { forwardedFor: clientIp(i) }).catch(() => null);
        if (res) results.push({ status: res.status, at: Date.now() });
        await new Promise((r) => setTimeout(r, 15));
      }
    });
    const accepted = () => results.filter((r) => r.status === 202).length;
    await waitUntil(() => accepted() >= 15, 'calls before the outage');
    const node = cluster.nodes[1]!;
    await node.kill();
    const killedAt = Date.now();
    await waitUntil(() => results.some((r) => r.at > killedAt && r.status === 503), 'refusals while a node is down');
    for (const relay of three) await waitUntil(async () => (await fetch(`${relay.url}/readyz`)).status === 503, 'not ready while a node is down');
    await node.restart();
    const backAt = Date.now();
    for (const relay of three) await untilReady(relay, 'ready again', 30_000);
    await waitUntil(() => results.filter((r) => r.at > backAt && r.status === 202).length >= 15, 'calls after the node returned', 30_000);
    stop = true;
    await Promise.all(workers);
    await new Promise((r) => setTimeout(r, 300));
    expect(results.every((r) => r.status === 202 || r.status === 503)).toBe(true);
    expect(sim.calls.length - before).toBe(accepted());
    expect(rungOnce()).toBe(true);
    for (const relay of three) {
      const lines = relay.lines().filter((l) => typeof l.alert === 'string' && String(l.alert).startsWith('redis_') && !l.resolved);
      expect(lines.length).toBeGreaterThanOrEqual(1);
    }
  });
});
