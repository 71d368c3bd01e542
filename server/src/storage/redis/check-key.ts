// The write-check key every relay SETs every REDIS_CHECK_MS (connection.ts) also says that a relay of
// this REDIS_PREFIX runs (it was written again a moment ago) and which Redis schema it writes (its
// value). Relays of one schema version may share a Redis, of two may not (schema-guard.ts; why:
// storage/README.md, "The write check's key").
import type { RedisSettings } from '../../config/redis.ts';
import { createRedisClient, type Client } from './client.ts';
import { withDeadline } from './commands.ts';

export const REDIS_SCHEMA_VERSION = 1;
/** What every relay of this version writes in its write check. */
export const CHECK_VALUE = `dialback-redis-schema ${REDIS_SCHEMA_VERSION}`;
/** The write check's key lives this long: one small key, never piling up. */
export const CHECK_KEY_TTL_MS = 60_000;
/** Every key group a store uses (connection.keyspace(group)): each its own hash tag, one Cluster slot. */
export const KEY_GROUPS = ['limits', 'idem', 'jobs', 'outbox', 'consent', 'shared', 'nevercall', 'report', 'callback-numbers', 'notify'] as const;

/** The write check's keys: one, or in a Cluster one in each key group's slot (a node down under any group is seen). */
export function checkKeys(settings: Pick<RedisSettings, 'prefix' | 'topology'>): string[] {
  const { prefix } = settings;
  return settings.topology?.kind === 'cluster' ? KEY_GROUPS.map((group) => `${prefix}{${prefix}${group}}:health`) : [`${prefix}{${prefix}health}:check`];
}

export interface CheckKeyWriters {
  /** The key was written (again) while it was watched: a relay (or another process with a connection) of this prefix runs. */
  running: boolean;
  /** The values written while it was watched, other than this version's. */
  foreign: string[];
}

const POLL_MS = 100;

/**
 * Watches the write-check key for twice the check interval (every writer writes once in that
 * time), with a client of its own (a connection's own write check would hide the others'). A key
 * last written longer ago than that: nobody runs, answered at once.
 */
export async function watchCheckKey(settings: RedisSettings, name: string, connectMs = 3 * settings.connectTimeoutMs): Promise<CheckKeyWriters> {
  const { client } = createRedisClient(settings, name);
  client.on('error', () => {});
  const key = checkKeys(settings)[0]!;
  const windowMs = Math.min(2 * (settings.checkIntervalMs ?? 1_000) + 500, CHECK_KEY_TTL_MS);
  const look = async (c: Client) => {
    const [value, ttl] = (await c.multi().get(key).pTTL(key).exec()) as unknown as [string | null, number];
    return { value, ttl };
  };
  try {
    // The client reconnects forever: a Redis that does not answer is an error, not a wait.
    await withDeadline(client.connect(), connectMs);
    let last = await look(client);
    const writers: CheckKeyWriters = { running: false, foreign: [] };
    if (last.ttl < 0 || CHECK_KEY_TTL_MS - last.ttl > windowMs) return writers;
    for (let waited = 0; waited < windowMs; waited += POLL_MS) {
      await new Promise((r) => setTimeout(r, POLL_MS));
      const now = await look(client);
      if (now.ttl > last.ttl) {
        writers.running = true;
        if (now.value !== null && now.value !== CHECK_VALUE && !writers.foreign.includes(now.value)) writers.foreign.push(now.value);
      }
      last = now;
    }
    return writers;
  } finally {
    if (client.isOpen) await client.close().catch(() => client.destroy());
  }
}
