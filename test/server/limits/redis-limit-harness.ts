// The Redis limit store's own tests share this: a private redis-server per test file (started and
// stopped with it; a test may kill, pause or restart it), and connections with a fresh prefix each
// whose log lines and command outcomes a test may collect.
import { afterAll, beforeAll, expect } from 'vitest';
import type { LimitStore } from '../../../server/src/limits/limit-store.ts';
import { connectRedis, type CommandOutcome, type RedisConnection } from '../../../server/src/storage/redis/connection.ts';
import { createRedisLimitStore } from '../../../server/src/limits/redis/limit-store.ts';
import { startRedisServer, type RedisServer } from '../../support/redis-server.ts';

export interface Line {
  level: string;
  msg: string;
  fields?: Record<string, unknown>;
}

/** Registers the file's redis-server (beforeAll, afterAll) and returns what its tests open on it. */
export function redisLimitHarness() {
  let server: RedisServer;
  const connections: RedisConnection[] = [];
  let prefixes = 0;

  beforeAll(async () => {
    server = await startRedisServer();
  });

  afterAll(async () => {
    await Promise.all(connections.map((c) => c.close()));
    await server?.stop();
  });

  function connect(options: { prefix?: string; lines?: Line[]; commands?: Array<{ operation: string; outcome: CommandOutcome }>; timeoutMs?: number } = {}): RedisConnection {
    const lines = options.lines ?? [];
    const at = (level: string) => (msg: string, fields?: Record<string, unknown>) => void lines.push({ level, msg, ...(fields && { fields }) });
    const connection = connectRedis(
      { url: server.url, prefix: options.prefix ?? `t${++prefixes}:`, commandTimeoutMs: options.timeoutMs ?? 500, connectTimeoutMs: 3_000 },
      { log: { info: at('info'), warn: at('warn'), error: at('error') }, observer: { command: (operation, _s, outcome) => options.commands?.push({ operation, outcome }) } },
    );
    connections.push(connection);
    return connection;
  }

  async function redisStore(prefix?: string): Promise<{ store: LimitStore; connection: RedisConnection }> {
    const connection = connect(prefix === undefined ? {} : { prefix });
    expect(await connection.waitReady(5_000)).toBe(true);
    return { store: createRedisLimitStore({ connection }), connection };
  }

  /** A prefix no other test of the file uses. */
  const freshPrefix = (name: string) => `${name}${++prefixes}:`;
  /** Closes a connection the test opened itself when the file is done. */
  const track = (connection: RedisConnection) => void connections.push(connection);

  return { server: () => server, connect, redisStore, freshPrefix, track };
}
