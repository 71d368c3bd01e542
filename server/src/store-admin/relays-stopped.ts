// A move needs every relay stopped: a relay writing while its store is read or written would leave
// a call on the side nobody looks at, or place one twice. How a running relay is told, per store:
//
// - The embedded store: a relay holds the SQLite file open; an exclusive lock cannot be had while
//   any process does (the same test as a restore, storage/sqlite/backup.ts).
// - Redis: each relay rewrites its write-check key every REDIS_CHECK_MS with a 60 s expiry
//   (storage/redis/connection.ts): its remaining time says when it was last written. Written longer
//   ago than twice the interval: no relay of this REDIS_PREFIX runs. Written more recently (relays
//   stopped a moment ago, or running): it is read again after that long, and a relay runs if it
//   was written meanwhile. Decision: this key rather than CLIENT LIST, since it is per deployment
//   (REDIS_PREFIX: another site's relays on the same Redis do not count), needs no admin command
//   an ACL may deny, and is there on every topology (a Cluster: in every key group's slot).
//   This looks with a client of its own, before the move's connection makes its own write check.
import { setTimeout as sleep } from 'node:timers/promises';
import type { RedisSettings } from '../config/redis.ts';
import { createRedisClient } from '../storage/redis/client.ts';
import { withDeadline } from '../storage/redis/commands.ts';
import { CHECK_KEY_TTL_MS } from '../storage/redis/connection.ts';
import { assertNotInUse } from '../storage/sqlite/backup.ts';
import { DATABASE_FILE } from '../storage/sqlite/database.ts';
import { join, resolve } from 'node:path';

export function assertNoEmbeddedRelay(dataDir: string): void {
  assertNotInUse(join(resolve(dataDir), DATABASE_FILE));
}

/** The key every relay of `prefix` rewrites (in a Cluster, the one in the jobs group's slot). */
const checkKey = (settings: RedisSettings) =>
  settings.topology?.kind === 'cluster' ? `${settings.prefix}{${settings.prefix}jobs}:health` : `${settings.prefix}{${settings.prefix}health}:check`;

export async function assertNoRedisRelay(settings: RedisSettings): Promise<void> {
  const { client } = createRedisClient(settings, 'dialback-store-admin');
  client.on('error', () => {});
  const key = checkKey(settings);
  const window = Math.min(2 * (settings.checkIntervalMs ?? 1_000) + 500, CHECK_KEY_TTL_MS);
  try {
    // The client reconnects forever: a Redis that does not answer is an error, not a wait.
    await withDeadline(client.connect(), 3 * settings.connectTimeoutMs);
    const first = await client.pTTL(key);
    if (first < 0 || CHECK_KEY_TTL_MS - first > window) return;
    await sleep(window);
    const second = await client.pTTL(key);
    if (second > first) {
      throw new Error(`a relay is running on this Redis (REDIS_PREFIX ${settings.prefix}): it wrote ${key} within the last ${window} ms; stop every relay before a move`);
    }
  } finally {
    if (client.isOpen) await client.close().catch(() => client.destroy());
  }
}
