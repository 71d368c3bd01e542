// Redis with Sentinel as operators run it: a primary, a replica and three redis-sentinel processes,
// two relays (node server/src/main.ts) given only the sentinels (REDIS_SENTINELS) under a steady
// load of callbacks. The primary is killed (kill -9): the sentinels promote the replica and the
// relays follow by themselves, back within the failover time plus a few seconds; no number rings
// twice and every request answered 202 is a call the service took. Then the old primary comes back
// with its old data: the sentinels demote it, and no relay writes to it meanwhile.
import { createClient } from 'redis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSimulator, type Simulator } from '../../../server/simulator/index.ts';
import { postCallback } from '../../support/post-callback.ts';
import { MASTER_NAME, startSentinelGroup, type SentinelGroup } from '../../support/redis-sentinel.ts';
import { clientIp, phoneOf, relayEnv, startRelay, waitUntil, type RelayProcess, untilReady } from '../../support/relay-processes.ts';
import { QUICK_CALLS } from '../../support/system.ts';

let group: SentinelGroup;
let sim: Simulator & { url: string; close(): Promise<void> };
let relays: RelayProcess[] = [];

beforeAll(async () => {
  [group, sim] = await Promise.all([startSentinelGroup(), startSimulator({ port: 0, host: '127.0.0.1', timing: QUICK_CALLS }) as Promise<typeof sim>]);
});
afterAll(async () => {
  await Promise.all(relays.map((r) => r.kill()));
  await sim?.close();
  await group?.stop();
});

/**
 * Whether the node is a replica now, and the commands it has counted since it started; null when
 * it could not be asked (it drops its clients while the sentinels turn it into a replica).
 */
async function inspect(port: number): Promise<[boolean, string] | null> {
  const client = createClient({ url: `redis://127.0.0.1:${port}`, socket: { reconnectStrategy: false } });
  client.on('error', () => {});
  try {
    await client.connect();
    // One transaction: the role and the counters of the same moment.
    const [role, stats] = (await client.multi().addCommand(['ROLE']).addCommand(['INFO', 'commandstats']).exec()) as unknown as [unknown[], string];
    return [String(role[0]) === 'slave', String(stats)];
  } catch {
    return null;
  } finally {
    if (client.isOpen) client.destroy();
  }
}

interface Result {
  status: number;
  phone: string;
  at: number;
}

describe('Redis Sentinel failover under load', () => {
  it('follows a kill -9 of the primary by itself, rings no number twice, loses no accepted request, and ignores the old primary when it returns', async () => {
    relays = await Promise.all(
      [0, 1].map(() =>
        startRelay(
          relayEnv(sim, {
            REDIS_SENTINELS: group.sentinels,
            REDIS_SENTINEL_NAME: MASTER_NAME,
            REDIS_PREFIX: 'sentinel:',
            REDIS_TIMEOUT_MS: '500',
            REDIS_CHECK_MS: '200',
            LIMIT_PREFIX_RATE: '65000',
            SITE_HOURLY_CAP: '65000',
            SITE_DAILY_CAP: '65000',
          }),
        ),
      ),
    );
    for (const relay of relays) await untilReady(relay, 'ready', 20_000);

    const results: Result[] = [];
    let next = 0;
    let stop = false;
    const workers = relays.flatMap((relay) =>
      [0, 1].map(async () => {
        while (!stop) {
          const i = next++;
          const res = await postCallback(relay, { consent: true, phone: phoneOf(i) }, { forwardedFor: clientIp(i) }).catch(() => null);
          if (res) results.push({ status: res.status, phone: phoneOf(i), at: Date.now() });
          await new Promise((r) => setTimeout(r, 20));
        }
      }),
    );
    const accepted = () => results.filter((r) => r.status === 202);
    await waitUntil(() => accepted().length >= 20, 'calls before the failover');

    const oldPrimary = group.primary.port;
    const killedAt = Date.now();
    await group.primary.kill();
    await waitUntil(async () => (await group.masterPort()) !== oldPrimary, 'the sentinels to promote the replica', 30_000);
    const promotedAt = Date.now();
    await waitUntil(() => accepted().some((r) => r.at > promotedAt), 'a call accepted after the failover', 30_000);
    const backAt = accepted().find((r) => r.at > killedAt && r.at > promotedAt)!.at;
    const failoverMs = promotedAt - killedAt;
    const serviceBackMs = backAt - killedAt;
    console.info(`sentinel failover: promoted after ${failoverMs} ms, relays taking calls again after ${serviceBackMs} ms`);
    // Within the failover time plus a few seconds (the client's reconnection and the write check).
    expect(serviceBackMs).toBeLessThan(failoverMs + 5_000);
    for (const relay of relays) await untilReady(relay, 'ready after the failover');

    // The old primary comes back with its old data, a lone master until the sentinels demote it.
    await group.primary.restart();
    const returnedAt = Date.now();
    // While it is a lone master, no relay writes to it: it counts no SET (the write check) and no
    // EVALSHA (every store step) since it started.
    const writesSeen: string[] = [];
    await waitUntil(
      async () => {
        const seen = await inspect(oldPrimary);
        if (!seen) return false;
        const [isReplica, stats] = seen;
        if (!isReplica) writesSeen.push(...stats.split('\n').filter((l) => /^cmdstat_(set|evalsha|eval|hset|zadd):/.test(l)));
        return isReplica;
      },
      'the sentinels to demote the old primary',
      30_000,
    );
    expect(writesSeen).toEqual([]);
    console.info(`old primary demoted ${Date.now() - returnedAt} ms after it came back`);
    const countAfter = accepted().length;
    await waitUntil(() => accepted().length >= countAfter + 20, 'calls after the old primary returned');

    stop = true;
    await Promise.all(workers);
    await new Promise((r) => setTimeout(r, 300));
    // Every 202 is a call the service took, exactly once; nothing else but 503 was answered.
    const rung = sim.calls.map((c) => c.caller);
    expect(new Set(rung).size).toBe(rung.length);
    expect(sim.calls).toHaveLength(accepted().length);
    const e164 = (phone: string) => `38${phone.replace(/\D/g, '')}`;
    expect(accepted().filter((r) => !rung.includes(e164(r.phone)))).toEqual([]);
    expect(results.every((r) => r.status === 202 || r.status === 503)).toBe(true);
    // Both relays wrote through the new primary only: the old one holds none of the calls accepted
    // after the failover (it was replaced by a copy of the new primary when demoted, or never written).
    expect(results.filter((r) => r.at > promotedAt && r.status === 202).length).toBeGreaterThan(20);
  }, 120_000);
});
