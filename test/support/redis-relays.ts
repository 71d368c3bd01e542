// In-process relays on Redis for a test file: each built from a config with `redis` set (its own
// connection, or one given with an observer), listening on loopback, and closed after each test.
import { afterEach, expect } from 'vitest';
import type { Config } from '../../server/src/config/index.ts';
import type { RedisSettings } from '../../server/src/config/redis.ts';
import type { Logger } from '../../server/src/log/index.ts';
import { openRedisStores } from '../../server/src/app/redis-stores.ts';
import { createRelay, type Relay } from '../../server/src/relay.ts';
import type { RelayStores } from '../../server/src/app/relay-stores.ts';
import type { RedisConnection } from '../../server/src/storage/redis/connection.ts';
import { listen, type Listening } from './listen.ts';

export interface RedisRelay {
  url: string;
  relay: Relay;
  stores: RelayStores;
}

export interface RedisRelayOptions {
  log: Logger;
  /** The relay's clock. */
  now?: () => Date;
  /** A connection of the test's own (e.g. with an observer) instead of one from `config.redis`. */
  connection?: RedisConnection;
}

/** Call at the top of a test file: `start(config, options)` gives a relay, closed after the test. */
export function redisRelaysPerTest(): (config: Config, options: RedisRelayOptions) => Promise<RedisRelay> {
  const started: Array<{ relay: Relay; stores: RelayStores; listening: Listening }> = [];
  afterEach(async () => {
    for (const r of started.splice(0)) {
      await r.listening.close();
      await r.relay.close();
      await r.stores.close();
    }
  });
  return async (config, { log, now, connection }) => {
    const stores = openRedisStores(config, log, { ...(connection && { connection }), ...(now && { now: () => now().getTime() }) });
    // Until its connection is up a relay refuses callbacks (503, fail closed): wait for it.
    expect(await stores.connection.waitReady(5_000)).toBe(true);
    const relay = createRelay({ config, log, stores, ...(now && { now }) });
    const listening = await listen(relay.server);
    started.push({ relay, stores, listening });
    return { url: listening.url, relay, stores };
  };
}

/** `config` with its store on `redis` under `prefix`: another relay of the same settings sharing that Redis. */
export function onRedis(config: Config, redis: { target: Pick<RedisSettings, 'url' | 'topology'> }, prefix: string): Config {
  return { ...config, redis: { ...redis.target, prefix, commandTimeoutMs: 2_000, connectTimeoutMs: 3_000 } };
}
