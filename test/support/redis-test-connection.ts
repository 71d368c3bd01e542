// One private redis-server per test file (support/redis-server.ts) and one connection to it, and
// from that, a fresh key prefix for every store a test makes: the contract tests' factories stay
// synchronous and every case starts from an empty store, as with memory and SQLite.
import { afterAll, beforeAll } from 'vitest';
import { connectRedis, type RedisConnection } from '../../server/src/storage/redis/connection.ts';
import { startRedisServer, type RedisServer } from './redis-server.ts';

const quiet = { info() {}, warn() {}, error() {} };

export interface RedisForTests {
  /** A view of the file's connection under a prefix no other store of the file uses. */
  fresh(): RedisConnection;
  readonly server: RedisServer;
}

/** Call at the top of a test file: starts the server before its tests and stops it after. */
export function redisForTests(): RedisForTests {
  let server: RedisServer | undefined;
  let connection: RedisConnection | undefined;
  let made = 0;
  beforeAll(async () => {
    server = await startRedisServer({ persistent: false });
    connection = connectRedis({ url: server.url, prefix: 'test:', commandTimeoutMs: 2_000, connectTimeoutMs: 3_000 }, { log: quiet });
    if (!(await connection.waitReady(5_000))) throw new Error('the test redis-server did not answer');
  });
  afterAll(async () => {
    await connection?.close();
    await server?.stop();
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
  };
}
