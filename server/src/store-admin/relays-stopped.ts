// A move needs every relay stopped: a relay writing meanwhile would leave a call on the side nobody
// looks at, or place one twice. The embedded store: a relay holds the SQLite file open (the same
// test as a restore). Redis: a relay rewrites its write-check key every REDIS_CHECK_MS
// (storage/redis/check-key.ts). Why that key and not CLIENT LIST: store-admin/README.md.
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
