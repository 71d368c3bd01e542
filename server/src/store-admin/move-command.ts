// `npm run store -- move embedded redis|redis embedded [--merge]`, with the relay's environment:
// DATA_DIR for the embedded store, REDIS_URL (or REDIS_SENTINELS, REDIS_CLUSTER) and REDIS_PREFIX
// for Redis, HASH_SECRET (or HASH_SECRET_FILE) as the relays use it, DATA_RETENTION_DAYS. Every
// relay must be stopped (relays-stopped.ts). Prints what it moved per kind as JSON.
import { readFileSync } from 'node:fs';
import type { Config } from '../config/index.ts';
import { connectRedis, type RedisConnection } from '../storage/redis/connection.ts';
import { openDatabase } from '../storage/sqlite/database.ts';
import { moveRecords, type MoveResult } from './move.ts';
import { assertNoEmbeddedRelay, assertNoRedisRelay } from './relays-stopped.ts';
import { embeddedRecords, redisRecords } from './store-records.ts';

export type StoreName = 'embedded' | 'redis';
export const STORE_NAMES: readonly StoreName[] = ['embedded', 'redis'];

/** A move reads and writes in batches: commands get more time than a relay's request path gives them. */
const MOVE_COMMAND_TIMEOUT_MS = 30_000;

/** The secret the relays use: HASH_SECRET, or the file HASH_SECRET_FILE names (read only: a move makes none). */
function hashSecretOf(config: Config): string {
  if (!config.hash.generated) return config.hash.secret;
  const file = config.hash.file;
  if (file === null) throw new Error('HASH_SECRET or HASH_SECRET_FILE must be set for a move');
  try {
    return readFileSync(file, 'utf8').trim();
  } catch (err) {
    throw new Error(`HASH_SECRET_FILE: cannot read ${file} (${(err as NodeJS.ErrnoException).code ?? String(err)})`);
  }
}

export async function runMove(config: Config, from: StoreName, merge: boolean, note: (line: string) => void): Promise<MoveResult> {
  const redis = config.redis;
  if (!redis) throw new Error('REDIS_URL (or REDIS_SENTINELS) is not set: a move needs the Redis settings the relays use');
  const hashSecret = hashSecretOf(config);
  const { dataDir, retentionDays } = config.store;
  assertNoEmbeddedRelay(dataDir);
  await assertNoRedisRelay(redis);
  const settings = { ...redis, commandTimeoutMs: Math.max(redis.commandTimeoutMs, MOVE_COMMAND_TIMEOUT_MS) };
  const log = { info: () => {}, warn: note, error: note };
  const connection: RedisConnection = connectRedis(settings, { log, name: 'dialback-store-admin' });
  const db = openDatabase({ dataDir });
  try {
    if (!(await connection.waitReady(settings.connectTimeoutMs * 3))) throw new Error('Redis did not answer (or does not take writes): see the lines above');
    const embedded = embeddedRecords(db, { retentionDays });
    const shared = redisRecords(connection, { retentionDays });
    note(
      `moving from ${from === 'embedded' ? `the embedded store in ${dataDir}` : `Redis (${redis.prefix})`} to ${from === 'embedded' ? `Redis (${redis.prefix})` : `the embedded store in ${dataDir}`}`,
    );
    const [source, target] = from === 'embedded' ? [embedded, shared] : [shared, embedded];
    return await moveRecords(source, target, { merge, hashSecret, note });
  } finally {
    db.close();
    await connection.close();
  }
}
