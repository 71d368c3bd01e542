// SharedState (shared-state.ts) in Redis: one relay polls the service, the others read. Each relay
// still caches in its own memory for the same period, so a flood of /api/status costs no Redis round
// trip; once per period a relay reads the shared value (one GET), and only the relay that wins the
// lock asks the service. When Redis cannot answer, a relay polls for itself (what one relay does
// anyway): /api/status never depends on Redis. Keys (group "shared"): docs/operations.md.
import { createHash } from 'node:crypto';
import type { SharedPoll, SharedState } from './shared-state.ts';
import type { RedisConnection } from '../storage/redis/connection.ts';
import { luaFile } from '../storage/redis/lua-file.ts';

/** How long a relay that lost the lock waits for the winner's value before answering without it. */
const WAIT_FOR_WINNER_MS = 3_000;
const WAIT_STEP_MS = 50;

const KEEP_EARLIEST = luaFile(new URL('./redis-shared-state/keep-earliest.lua', import.meta.url));

/** Notes kept at most per name: they are rare (an owner's erasure), and a reader reads them all. */
const MAX_NOTES = 1_000;

const ADD_NOTE = luaFile(new URL('./redis-shared-state/add-note.lua', import.meta.url));

const siteKey = (site: string) => createHash('sha256').update(site).digest('base64url').slice(0, 22);

export function createRedisSharedState(options: { connection: RedisConnection; relayId: string; now?: () => number }): SharedState {
  const { connection } = options;
  const now = options.now ?? Date.now;
  const space = connection.keyspace('shared');
  /** undefined: Redis could not answer. */
  const soft = async <T>(p: Promise<T>): Promise<T | undefined> => p.catch(() => undefined);

  return {
    poll<T>(name: string, freshMs: number): SharedPoll<T> {
      const valueKey = `${space}poll:${name}`;
      const lockKey = `${valueKey}:lock`;
      type Stored = { value: T; fetchedAt: number };
      const read = async (): Promise<Stored | null> => {
        const raw = await connection.run(`shared.${name}.get`, (c) => c.get(valueKey));
        return raw ? (JSON.parse(raw) as Stored) : null;
      };
      return {
        async get(fetch) {
          let won: boolean;
          try {
            const stored = await read();
            if (stored) return stored;
            won = (await connection.run(`shared.${name}.lock`, (c) => c.set(lockKey, options.relayId, { NX: true, PX: freshMs }))) === 'OK';
          } catch {
            // Redis down: poll for ourselves, as one relay would.
            return { value: await fetch(), fetchedAt: now() };
          }
          if (won) {
            const got: Stored = { value: await fetch(), fetchedAt: now() };
            await soft(connection.run(`shared.${name}.set`, (c) => c.set(valueKey, JSON.stringify(got), { PX: freshMs })));
            return got;
          }
          // Another relay is asking the service right now: wait for its answer.
          const deadline = Date.now() + Math.min(WAIT_FOR_WINNER_MS, freshMs);
          while (Date.now() < deadline) {
            await new Promise((r) => setTimeout(r, WAIT_STEP_MS));
            const stored = await soft(read());
            if (stored) return stored;
          }
          return null;
        },
        async forget() {
          await connection.run(`shared.${name}.forget`, (c) => c.del(valueKey));
        },
      };
    },

    async keepEarliest(name, at, ttlMs) {
      const v = await soft(connection.evalScript(`shared.${name}.mark`, KEEP_EARLIEST, [`${space}mark:${name}`], [Math.floor(at), Math.max(1, Math.floor(ttlMs))]));
      return v === undefined || v === null ? null : Number(v);
    },

    async openBreaker(site, window, ttlMs) {
      const key = `${space}breaker:${siteKey(site)}:${window}`;
      const set = await soft(connection.run('shared.breaker.open', (c) => c.set(key, 'open', { NX: true, PX: Math.max(1, Math.floor(ttlMs)) })));
      return set === undefined ? null : set === 'OK';
    },

    async closeBreaker(site) {
      const base = `${space}breaker:${siteKey(site)}:`;
      const n = await soft(connection.run('shared.breaker.close', (c) => c.del([`${base}hourly`, `${base}daily`])));
      return n === undefined ? null : n > 0;
    },

    async addNote(name, note, ttlMs) {
      await connection.evalScript(`shared.${name}.note`, ADD_NOTE, [`${space}notes:${name}`], [note, now(), Math.max(1, Math.floor(ttlMs)), MAX_NOTES], { durable: true });
    },

    async notes(name) {
      // Expired notes not yet dropped by the next addNote are read too: a note applies once more at worst.
      return (await soft(connection.run(`shared.${name}.notes`, (c) => c.zRange(`${space}notes:${name}`, 0, -1)))) ?? [];
    },

    get ready() {
      return connection.ready;
    },
  };
}
