// The stores as an older relay left them (test/support/fixtures/legacy-stores/): the SQLite file
// copied into a fresh DATA_DIR, and the Redis dump loaded into an empty Redis.
import { copyFileSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { createClient, createCluster } from 'redis';
import { tempDataDir } from './crash.ts';

const DIR = new URL('./fixtures/legacy-stores/', import.meta.url);
const COMMIT = 'ca5ca3d';

export interface RedisKey {
  key: string;
  type: 'string' | 'hash' | 'zset' | 'set' | 'list';
  /** PTTL when dumped; null: no expiry. */
  ttlMs: number | null;
  value: string | Record<string, string> | Array<{ member: string; score: number }> | string[];
}

export interface LegacyJob {
  key: string;
  callbackId: string;
  kind: 'scheduled' | 'queued' | 'redial';
  state: 'pending' | 'completed' | 'failed' | 'cancelled';
  dueAt: number;
  notes: {
    last?: { at: number; result: 'placed' | 'unknown' };
    retriedUnknown?: boolean;
    redials?: number;
    queuedAt?: number;
    unreachable?: number;
    scheduledFor?: number;
    dueSince?: number;
  } | null;
  maskedNumber: string;
  e164: string | null;
  numberHash: string;
  attempts: number;
  lease: { owner: string; expiresAt: number } | null;
  interrupted: boolean;
  outcome: string | null;
  createdAt: number;
  updatedAt: number;
  request: Record<string, unknown>;
  /** The token the visitor was given; null when none was. */
  cancelToken: string | null;
}

export interface LegacyExpected {
  now: number;
  hashSecret: string;
  jobs: LegacyJob[];
}

export const legacyExpected = (): LegacyExpected => JSON.parse(readFileSync(new URL('expected.json', DIR), 'utf8'));

/** A DATA_DIR holding the older relay's SQLite file. */
export function legacyDataDir(): string {
  const dir = tempDataDir();
  copyFileSync(new URL(`main-${COMMIT}.sqlite`, DIR), join(dir, 'dialback.sqlite'));
  return dir;
}

/**
 * Loads the older relay's Redis keys (prefix `dialback:`) into the (empty) Redis at `url`, or into
 * the Redis Cluster whose nodes are `url` when it is a list (each key goes to its slot's node).
 */
export async function loadLegacyRedis(url: string | string[]): Promise<number> {
  const { keys } = JSON.parse(readFileSync(new URL(`main-${COMMIT}.redis.json`, DIR), 'utf8')) as { keys: RedisKey[] };
  // The cluster client spells these commands as the one-address client does.
  const client = Array.isArray(url) ? (createCluster({ rootNodes: url.map((u) => ({ url: u })) }) as unknown as ReturnType<typeof createClient>) : createClient({ url });
  client.on('error', () => {});
  await client.connect();
  try {
    for (const k of keys) {
      if (k.type === 'string') await client.set(k.key, k.value as string);
      else if (k.type === 'hash') await client.hSet(k.key, k.value as Record<string, string>);
      else if (k.type === 'zset')
        await client.zAdd(
          k.key,
          (k.value as Array<{ member: string; score: number }>).map((m) => ({ value: m.member, score: m.score })),
        );
      else if (k.type === 'set') await client.sAdd(k.key, k.value as string[]);
      else await client.rPush(k.key, k.value as string[]);
      if (k.ttlMs !== null) await client.pExpire(k.key, k.ttlMs);
    }
  } finally {
    await client.close();
  }
  return keys.length;
}
