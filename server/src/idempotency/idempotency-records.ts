// Idempotency-Key entries read from and written to either store whole, for `npm run store -- move`:
// every unexpired entry, answered or still "in progress" (a key whose request was running when its
// relay stopped stays 409 until its TTL, on the other side too: the call may have been placed).
// Both stores name an entry by the same hash of site and key and keep the same keyed fingerprint,
// so a repeat after the move gets the first answer and never a second call. Each expires at its
// own expiry on the other side.
import type { DatabaseSync } from 'node:sqlite';
import type { RedisConnection } from '../storage/redis/connection.ts';
import { luaFile } from '../storage/redis/lua-file.ts';
import { groupValues } from '../storage/redis/scan-values.ts';
import { pages, type RecordSet } from '../storage/record-set.ts';

export interface IdempotencyEntry {
  id: string;
  /** The keyed hash of the request's fingerprint. */
  fingerprint: string;
  createdMs: number;
  expiresMs: number;
  /** The stored answer (JSON); null while the request was running. */
  reply: string | null;
}

export function sqliteIdempotencyRecords(db: DatabaseSync): RecordSet<IdempotencyEntry> {
  const sql = {
    page: db.prepare('SELECT id, fingerprint, created_ms AS createdMs, expires_ms AS expiresMs, reply FROM idempotency WHERE expires_ms > ? AND id > ? ORDER BY id LIMIT ?'),
    count: db.prepare('SELECT COUNT(*) AS n FROM idempotency'),
    exists: db.prepare('SELECT 1 FROM idempotency WHERE id = ?'),
    put: db.prepare('INSERT OR REPLACE INTO idempotency (id, fingerprint, created_ms, expires_ms, reply) VALUES (?, ?, ?, ?, ?)'),
  };
  return {
    count: async () => (sql.count.get() as { n: number }).n,
    read: (nowMs) => pages<IdempotencyEntry>((after, size) => sql.page.all(nowMs, after?.id ?? '', size) as unknown as IdempotencyEntry[]),
    async write(entries) {
      let replaced = 0;
      for (const e of entries) {
        if (sql.exists.get(e.id)) replaced++;
        sql.put.run(e.id, e.fingerprint, e.createdMs, e.expiresMs, e.reply);
      }
      return { added: entries.length - replaced, replaced, refused: [] };
    },
  };
}

/** The index sets live a minute past their newest entry, as the store keeps them (redis-store.ts). */
const INDEX_SLACK_MS = 60_000;

const PUT = luaFile(new URL('./idempotency-records/put.lua', import.meta.url));

export function redisIdempotencyRecords(connection: RedisConnection): RecordSet<IdempotencyEntry> {
  const space = connection.keyspace('idem');
  const [all, done] = [`${space}all`, `${space}done`];
  return {
    count: () => connection.run('idempotency.move.count', (c) => c.zCard(all)),
    async *read(nowMs) {
      for await (const batch of groupValues(connection, space, `${space}k:*`, 'hash')) {
        yield batch.flatMap(([key, h]) =>
          h.f !== undefined && Number(h.e) > nowMs
            ? [{ id: key.slice(`${space}k:`.length), fingerprint: h.f, createdMs: Number(h.c), expiresMs: Number(h.e), reply: h.r ?? null }]
            : [],
        );
      }
    },
    async write(entries) {
      const answers = await Promise.all(
        entries.map((e) =>
          connection.evalScript('idempotency.move.write', PUT, [`${space}k:${e.id}`, all, done], [e.id, e.fingerprint, e.createdMs, e.expiresMs, e.reply ?? '', INDEX_SLACK_MS]),
        ),
      );
      const replaced = answers.filter((a) => a === 'replaced').length;
      return { added: entries.length - replaced, replaced, refused: [] };
    },
  };
}
