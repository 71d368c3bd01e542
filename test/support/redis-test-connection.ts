// One private redis-server per test file (support/redis-server.ts) and one connection to it, and
// from that, a fresh key prefix for every store a test makes: the contract tests' factories stay
// synchronous and every case starts from an empty store, as with memory and SQLite.
import { afterAll, beforeAll } from 'vitest';
import type { RedisSettings } from '../../server/src/config/redis.ts';
import { connectRedis, type RedisConnection } from '../../server/src/storage/redis/connection.ts';
import { startRedisCluster, type RedisCluster } from './redis-cluster.ts';
import { startRedisServer, type RedisServer } from './redis-server.ts';

const quiet = { info() {}, warn() {}, error() {} };

export interface RedisForTests {
  /** A view of the file's connection under a prefix no other store of the file uses. */
  fresh(): RedisConnection;
  readonly server: RedisServer;
  /** Where a relay's stores connect (REDIS_URL, and REDIS_CLUSTER's seeds for a cluster). */
  readonly target: Pick<RedisSettings, 'url' | 'topology'>;
  /** Every node's URL (one for a single server): what SCAN must visit to see every key. */
  readonly nodeUrls: string[];
}

/**
 * Call at the top of a test file: starts the server before its tests and stops it after.
 * `cluster`: a real 3-primary Redis Cluster instead, reached by the cluster client (REDIS_CLUSTER).
 */
export function redisForTests(options: { cluster?: boolean } = {}): RedisForTests {
  let server: RedisServer | undefined;
  let cluster: RedisCluster | undefined;
  let connection: RedisConnection | undefined;
  let made = 0;
  beforeAll(async () => {
    const settings = { prefix: 'test:', commandTimeoutMs: 2_000, connectTimeoutMs: 3_000 };
    if (options.cluster) {
      cluster = await startRedisCluster(3);
      server = cluster.nodes[0]!;
      connection = connectRedis({ ...settings, url: server.url, topology: { kind: 'cluster', seeds: cluster.nodes.map((n) => n.url) } }, { log: quiet });
    } else {
      server = await startRedisServer({ persistent: false });
      connection = connectRedis({ ...settings, url: server.url }, { log: quiet });
    }
    if (!(await connection.waitReady(10_000))) throw new Error('the test redis-server did not answer');
  }, 60_000);
  afterAll(async () => {
    await connection?.close();
    await (cluster ?? server)?.stop();
  });
  return {
    fresh() {
      if (!connection) throw new Error('redisForTests: the server is not started yet (call fresh() inside a test)');
      const prefix = `t${++made}:`;
      return Object.assign(Object.create(connection) as RedisConnection, { prefix, keyspace: (group: string) => `${prefix}{${prefix}${group}}:` });
    },
    get server() {
      if (!server) throw new Error('redisForTests: the server is not started yet');
      return server;
    },
    get target() {
      if (!server) throw new Error('redisForTests: the server is not started yet');
      return cluster ? { url: server.url, topology: { kind: 'cluster' as const, seeds: cluster.nodes.map((n) => n.url) } } : { url: server.url };
    },
    get nodeUrls() {
      if (!server) throw new Error('redisForTests: the server is not started yet');
      return (cluster?.nodes ?? [server]).map((n) => n.url);
    },
  };
}
