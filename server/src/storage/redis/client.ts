// The node-redis client for the configured topology: one address (createClient), Sentinel
// (createSentinel: the sentinels name the primary, and the client follows a failover they announce)
// or Cluster (createCluster: each command goes to the node serving its key's slot, MOVED and ASK
// are followed). All three get the settings that make an outage cheap (connection.ts says why):
// no offline queue, a bounded command queue, reconnecting forever with capped backoff.
//
// The stores call the same few commands on all three (get, set, hGet, zRange, multi, evalSha,
// info…), which the three clients spell alike; so they are typed as the one-address client.
import { createClient, createCluster, createSentinel } from 'redis';
import type { RedisSettings } from '../../config/redis.ts';

export type Client = ReturnType<typeof createClient>;
export type Topology = 'standalone' | 'sentinel' | 'cluster';

/** Commands held while connected but unanswered; beyond this they fail at once. */
const MAX_QUEUED_COMMANDS = 10_000;

/**
 * No deadline of node-redis's own (by default 5 s, an AbortSignal.timeout per command: a timer, and
 * an exception made when it fires whether or not the answer came long before, ~1 % of the relay's
 * CPU under a flood). Every command already has the connection's deadline (REDIS_TIMEOUT_MS,
 * connection.ts), which is shorter and is what the relay answers by.
 */
const NO_CLIENT_DEADLINE = { timeout: 0 } as const;

/** Reconnect delays: 100 ms doubling to 2 s, plus up to 250 ms jitter so relays do not stampede. */
export function reconnectDelay(retries: number): number {
  return Math.min(100 * 2 ** Math.min(retries, 10), 2_000) + Math.floor(Math.random() * 250);
}

function nodeOptions(settings: RedisSettings, name: string) {
  return {
    name,
    disableOfflineQueue: true,
    commandsQueueMaxLength: MAX_QUEUED_COMMANDS,
    commandOptions: NO_CLIENT_DEADLINE,
    socket: {
      connectTimeout: settings.connectTimeoutMs,
      reconnectStrategy: (retries: number) => reconnectDelay(retries),
      keepAlive: true,
      noDelay: true,
    },
  } as const;
}

/** user, password, database and TLS from a redis:// URL (Sentinel's data nodes, Cluster's nodes). */
function credentials(url: string) {
  const parsed = new URL(url);
  const db = parsed.pathname.replace('/', '');
  return {
    ...(parsed.username && { username: decodeURIComponent(parsed.username) }),
    ...(parsed.password && { password: decodeURIComponent(parsed.password) }),
    ...(db && { database: Number(db) }),
    tls: parsed.protocol === 'rediss:',
  };
}

export function createRedisClient(settings: RedisSettings, name: string): { client: Client; topology: Topology } {
  const topology = settings.topology ?? { kind: 'standalone' };
  const base = nodeOptions(settings, name);
  if (topology.kind === 'sentinel') {
    const { tls, ...auth } = credentials(settings.url);
    const client = createSentinel({
      name: topology.name,
      sentinelRootNodes: topology.sentinels,
      nodeClientOptions: { ...base, ...auth, socket: { ...base.socket, ...(tls && { tls: true as const }) } },
      sentinelClientOptions: {
        ...(topology.sentinelPassword && { password: topology.sentinelPassword }),
        socket: { connectTimeout: settings.connectTimeoutMs, keepAlive: true, noDelay: true },
      },
      commandOptions: NO_CLIENT_DEADLINE,
      masterPoolSize: 1,
      replicaPoolSize: 0,
      // Failovers are announced on the sentinels' +switch-master channel; the scan is the backstop.
      scanInterval: 5_000,
      passthroughClientErrorEvents: true,
    });
    return { client: client as unknown as Client, topology: 'sentinel' };
  }
  if (topology.kind === 'cluster') {
    const { tls, ...auth } = credentials(topology.seeds[0]!);
    const client = createCluster({
      rootNodes: topology.seeds.map((url) => ({ url })),
      defaults: { ...base, ...auth, socket: { ...base.socket, ...(tls && { tls: true as const }) } },
      commandOptions: NO_CLIENT_DEADLINE,
      useReplicas: false,
      minimizeConnections: false,
    });
    return { client: client as unknown as Client, topology: 'cluster' };
  }
  return { client: createClient({ url: settings.url, ...base }), topology: 'standalone' };
}

/**
 * A raw command to the node that serves `key` (Cluster) or the primary, on the connection the
 * stores' commands use: WAIT counts the acknowledgements of that connection's earlier writes.
 */
export function sendTo(client: Client, topology: Topology, key: string, args: string[]): Promise<unknown> {
  // The three clients spell sendCommand differently; the one-address type does not know the others.
  const raw = client as unknown as { sendCommand(...parts: unknown[]): Promise<unknown> };
  if (topology === 'cluster') return raw.sendCommand(key, false, args);
  if (topology === 'sentinel') return raw.sendCommand(false, args);
  return client.sendCommand(args);
}
