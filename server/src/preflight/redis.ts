// Redis as the relays will use it: reachable in the configured topology, keeping every key under
// memory pressure (maxmemory-policy noeviction: evicted limit keys and Idempotency-Keys would let
// floods and second calls through), with the replicas REDIS_MIN_REPLICAS asks for acknowledging a
// write (WAIT). In a Cluster each key group's node is asked, since a callback touches them all.
import type { RedisSettings } from '../config/index.ts';
import { createRedisClient, sendTo, type Client, type Topology } from '../storage/redis/client.ts';
import { KEY_GROUPS } from '../storage/redis/connection.ts';
import { type Check, fail, pass } from './check.ts';

/** `field:value` lines of an INFO answer. */
function infoField(info: unknown, field: string): string | undefined {
  return new RegExp(`^${field}:(.*)$`, 'm').exec(String(info))?.[1]?.trim();
}

function deadline<T>(promise: Promise<T>, ms: number, what: string): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`${what} took longer than ${ms} ms`)), ms);
  });
  return Promise.race([promise, late]).finally(() => clearTimeout(timer));
}

export async function checkRedis(settings: RedisSettings): Promise<Check[]> {
  const { client, topology } = createRedisClient(settings, 'dialback-check');
  client.on('error', () => {}); // failures come back from the commands themselves
  const waitMs = Math.max(settings.connectTimeoutMs, 3_000);
  try {
    await deadline(client.connect(), waitMs, 'connecting');
  } catch (err) {
    await client.destroy?.();
    return [
      fail('redis', `cannot reach Redis (${topology}): ${(err as Error).message}; check REDIS_URL${topology === 'sentinel' ? ', REDIS_SENTINELS and REDIS_SENTINEL_NAME' : ''}`),
    ];
  }
  try {
    // One key per group: in a Cluster each may live on its own node; elsewhere they share the one.
    const keys = topology === 'cluster' ? KEY_GROUPS.map((g) => `${settings.prefix}{${settings.prefix}${g}}:check`) : [`${settings.prefix}{${settings.prefix}health}:check`];
    const ask = (key: string, args: string[]) => deadline(sendTo(client, topology, key, args), waitMs, args.join(' '));
    const nodes = new Map<string, { key: string; server: unknown; memory: unknown; replication: unknown }>();
    for (const key of keys) {
      const server = await ask(key, ['INFO', 'server']);
      const id = infoField(server, 'run_id') ?? key;
      if (!nodes.has(id)) nodes.set(id, { key, server, memory: await ask(key, ['INFO', 'memory']), replication: await ask(key, ['INFO', 'replication']) });
    }
    return [
      topologyCheck(
        topology,
        [...nodes.values()].map((n) => infoField(n.server, 'redis_mode') ?? 'standalone'),
      ),
      policyCheck([...nodes.values()].map((n) => infoField(n.memory, 'maxmemory_policy') ?? 'unknown')),
      await replicaCheck(settings, client, topology, [...nodes.values()], ask),
    ];
  } catch (err) {
    return [fail('redis', `Redis answered with an error: ${(err as Error).message}`)];
  } finally {
    await client.close().catch(() => client.destroy?.());
  }
}

function topologyCheck(topology: Topology, modes: string[]): Check {
  const clustered = modes.some((m) => m === 'cluster');
  if (topology === 'cluster' && !clustered)
    return fail('redis', 'REDIS_CLUSTER is true but the node is not in cluster mode: unset REDIS_CLUSTER, or point REDIS_URL at the cluster');
  if (topology !== 'cluster' && clustered) return fail('redis', 'the node is part of a Redis Cluster: set REDIS_CLUSTER=true and list seed nodes in REDIS_URL');
  const where = topology === 'cluster' ? `${modes.length} primary node(s) serve the key groups` : topology === 'sentinel' ? 'the sentinels named the primary' : 'one node';
  return pass('redis', `connected (${topology}: ${where})`);
}

function policyCheck(policies: string[]): Check {
  const wrong = [...new Set(policies.filter((p) => p !== 'noeviction'))];
  if (wrong.length > 0) {
    return fail(
      'redis-eviction',
      `maxmemory-policy is ${wrong.join(', ')}: under memory pressure Redis would evict limit keys and Idempotency-Keys (limits fail open, a call may ring twice); set maxmemory-policy noeviction`,
    );
  }
  return pass('redis-eviction', 'maxmemory-policy is noeviction');
}

type Ask = (key: string, args: string[]) => Promise<unknown>;

async function replicaCheck(settings: RedisSettings, client: Client, topology: Topology, nodes: Array<{ key: string; replication: unknown }>, ask: Ask): Promise<Check> {
  const counts = nodes.map((n) => Number(infoField(n.replication, 'connected_slaves') ?? 0));
  const fewest = Math.min(...counts);
  const wanted = settings.durability?.minReplicas ?? 0;
  if (wanted === 0) return pass('redis-replicas', `${fewest} replica(s) per primary; REDIS_MIN_REPLICAS is 0: no acknowledgement asked`);
  if (fewest < wanted)
    return fail('redis-replicas', `REDIS_MIN_REPLICAS is ${wanted} but a primary has ${fewest} replica(s) online: every guarded write would fail (503); add replicas or lower it`);
  for (const node of nodes) {
    await ask(node.key, ['SET', node.key, '1', 'PX', '60000']);
    const acked = Number(await sendTo(client, topology, node.key, ['WAIT', String(wanted), String(settings.durability!.replicaWaitMs)]));
    if (acked < wanted) {
      return fail(
        'redis-replicas',
        `WAIT: ${acked} of ${wanted} replicas acknowledged a write within REDIS_REPLICA_WAIT_MS (${settings.durability!.replicaWaitMs} ms): check replication lag, or raise it`,
      );
    }
  }
  return pass('redis-replicas', `${wanted} replica(s) acknowledged a write (WAIT) on every primary`);
}
