// How the relay finds Redis beyond one address: Sentinel (REDIS_SENTINELS, REDIS_SENTINEL_NAME,
// REDIS_SENTINEL_PASSWORD), Cluster (REDIS_CLUSTER=true, REDIS_URL a comma list of seed nodes), and
// how many replicas must acknowledge the writes that prevent a second call (REDIS_MIN_REPLICAS,
// REDIS_REPLICA_WAIT_MS). One readable line per mistake; passwords never echoed.
import { type EnvReader, expectedError, requiredError } from './env.ts';

export interface RedisNodeAddress {
  host: string;
  port: number;
}

export type RedisTopology =
  | { kind: 'standalone' }
  /** The sentinels name the primary; REDIS_URL, if set, gives only the data nodes' user, password, db and TLS. */
  | { kind: 'sentinel'; sentinels: RedisNodeAddress[]; name: string; sentinelPassword?: string }
  /** REDIS_URL's nodes are seeds: the client learns the rest of the cluster from them. */
  | { kind: 'cluster'; seeds: string[] };

export interface RedisDurability {
  /** Replicas that must acknowledge a guarding write (WAIT) before a call may go on; 0: none asked. */
  minReplicas: number;
  /** How long WAIT may take (REDIS_REPLICA_WAIT_MS). */
  replicaWaitMs: number;
}

function hostPort(item: string): RedisNodeAddress | null {
  const match = /^(\[[0-9a-fA-F:.]+\]|[A-Za-z0-9.-]+):(\d{1,5})$/.exec(item);
  if (!match) return null;
  const port = Number(match[2]);
  return port >= 1 && port <= 65_535 ? { host: match[1]!.replace(/^\[|\]$/g, ''), port } : null;
}

/** `urls` is REDIS_URL split at commas (one entry unless REDIS_CLUSTER). */
export function readRedisTopology(env: EnvReader, urls: string[] | undefined): RedisTopology {
  const sentinels = env.list('REDIS_SENTINELS', hostPort, 'a comma-separated list of host:port (the sentinels, e.g. 10.0.0.5:26379,10.0.0.6:26379)');
  const name = env.text('REDIS_SENTINEL_NAME', { pattern: /^[A-Za-z0-9_.-]{1,64}$/, expected: 'the master group name the sentinels monitor (letters, digits, _ . -)' });
  const sentinelPassword = env.text('REDIS_SENTINEL_PASSWORD', { secret: true });
  const cluster = env.flag('REDIS_CLUSTER') ?? false;
  if (sentinels) {
    if (cluster) throw expectedError('REDIS_CLUSTER', 'false or unset with REDIS_SENTINELS (Sentinel and Cluster are two different topologies)', 'true');
    if (!name) throw requiredError('REDIS_SENTINEL_NAME', 'with REDIS_SENTINELS (the master group the sentinels monitor, as in `sentinel monitor <name> …`)');
    if (urls && urls.length > 1)
      throw expectedError('REDIS_URL', 'one URL with REDIS_SENTINELS (its user, password and db are used; the sentinels name the host)', undefined, true);
    return { kind: 'sentinel', sentinels, name, ...(sentinelPassword && { sentinelPassword }) };
  }
  if (name) throw requiredError('REDIS_SENTINELS', 'with REDIS_SENTINEL_NAME (the sentinels as host:port, comma-separated)');
  if (sentinelPassword) throw requiredError('REDIS_SENTINELS', 'with REDIS_SENTINEL_PASSWORD');
  if (cluster) {
    if (!urls) throw requiredError('REDIS_URL', 'with REDIS_CLUSTER=true (one or more cluster nodes, comma-separated: redis://10.0.0.1:6379,redis://10.0.0.2:6379)');
    return { kind: 'cluster', seeds: urls };
  }
  if (urls && urls.length > 1) throw expectedError('REDIS_URL', 'one URL (several, comma-separated, only with REDIS_CLUSTER=true)', undefined, true);
  return { kind: 'standalone' };
}

export function readRedisDurability(env: EnvReader): RedisDurability {
  // 0 by default: a lone Redis has no replica to wait for, and WAIT would only add a round trip.
  const minReplicas = env.whole('REDIS_MIN_REPLICAS', 0, 16) ?? 0;
  const replicaWaitMs = env.duration('REDIS_REPLICA_WAIT_MS', 1, 10_000) ?? 100;
  return { minReplicas, replicaWaitMs };
}
