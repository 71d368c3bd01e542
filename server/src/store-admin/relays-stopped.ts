// A move needs every relay stopped: a relay writing while its store is read or written would leave
// a call on the side nobody looks at, or place one twice. How a running relay is told, per store:
//
// - The embedded store: a relay holds the SQLite file open; an exclusive lock cannot be had while
//   any process does (the same test as a restore, storage/sqlite/backup.ts).
// - Redis: each relay rewrites its write-check key every REDIS_CHECK_MS (storage/redis/check-key.ts).
//   Written longer ago than twice the interval: no relay of this REDIS_PREFIX runs. Written more
//   recently (relays stopped a moment ago, or running): it is watched for that long, and a relay
//   runs if it is written meanwhile. Decision: this key rather than CLIENT LIST, since it is per
//   deployment (REDIS_PREFIX: another site's relays on the same Redis do not count), needs no admin
//   command an ACL may deny, and is there on every topology. It is watched with a client of its
//   own, before the move's connection makes its own write check.
import { join, resolve } from 'node:path';
import type { RedisSettings } from '../config/redis.ts';
import { checkKeys, watchCheckKey } from '../storage/redis/check-key.ts';
import { assertNotInUse } from '../storage/sqlite/backup.ts';
import { DATABASE_FILE } from '../storage/sqlite/database.ts';

export function assertNoEmbeddedRelay(dataDir: string): void {
  assertNotInUse(join(resolve(dataDir), DATABASE_FILE));
}

export async function assertNoRedisRelay(settings: RedisSettings): Promise<void> {
  if ((await watchCheckKey(settings, 'dialback-store-admin')).running) {
    throw new Error(`a relay is running on this Redis (REDIS_PREFIX ${settings.prefix}): it wrote ${checkKeys(settings)[0]} a moment ago; stop every relay before a move`);
  }
}
