// IdempotencyStore in the SQLite file: every begin, complete and abandon commits before it returns,
// so a repeated key replays after a restart (kill -9 included) exactly as before it. Rows are keyed
// by a hash of site and key. The request's fingerprint is a plain SHA-256 of its body, number
// included; a body can be little more than a number, and numbers are few enough to try them all,
// so the file keeps only a keyed hash of the fingerprint (HMAC with HASH_SECRET). Expired rows are deleted at most once per EXPIRY_WALK_MS (lookups
// ignore them meanwhile); at the key limit a batch of the oldest finished rows makes room.
import type { DatabaseSync } from 'node:sqlite';
import type { Answer } from '../contract/answer.ts';
import { idempotencyErrors, onceTicket, replayed, storedEntries, storedReply, type IdempotencyStore, type IdempotencyStoreOptions } from './idempotency-store.ts';
import { transaction } from '../storage/sqlite/database.ts';

interface Row {
  fingerprint: string;
  created_ms: number;
  expires_ms: number;
  reply: string | null;
}

export function createSqliteIdempotencyStore(options: IdempotencyStoreOptions & { db: DatabaseSync; hashSecret: string }): IdempotencyStore {
  const { db } = options;
  const { idOf, keyed, now, ttlMs, evictionBatch } = storedEntries(options);
  const expiryWalkMs = Math.min(60_000, Math.max(1, Math.floor(ttlMs / 100)));
  let nextExpiryWalk = 0;

  const sql = {
    get: db.prepare('SELECT fingerprint, created_ms, expires_ms, reply FROM idempotency WHERE id = ?'),
    insert: db.prepare('INSERT OR REPLACE INTO idempotency (id, fingerprint, created_ms, expires_ms, reply) VALUES (?, ?, ?, ?, NULL)'),
    complete: db.prepare('UPDATE idempotency SET reply = ? WHERE id = ? AND created_ms = ? AND reply IS NULL'),
    abandon: db.prepare('DELETE FROM idempotency WHERE id = ? AND created_ms = ? AND reply IS NULL'),
    expire: db.prepare('DELETE FROM idempotency WHERE expires_ms <= ?'),
    evict: db.prepare('DELETE FROM idempotency WHERE id IN (SELECT id FROM idempotency WHERE reply IS NOT NULL ORDER BY created_ms LIMIT ?)'),
    count: db.prepare('SELECT COUNT(*) AS n FROM idempotency'),
    forget: db.prepare("DELETE FROM idempotency WHERE reply IS NOT NULL AND reply ->> '$.body.requestId' IN (SELECT value FROM json_each(?))"),
  };
  let size = (sql.count.get() as { n: number }).n;

  function expire(at: number, force = false): void {
    if (!force && at < nextExpiryWalk) return;
    nextExpiryWalk = at + expiryWalkMs;
    size -= Number(sql.expire.run(at).changes);
  }

  function makeRoom(at: number): boolean {
    if (size < options.maxKeys) return true;
    expire(at, true);
    if (size < options.maxKeys) return true;
    size -= Number(sql.evict.run(evictionBatch).changes);
    return size < options.maxKeys;
  }

  return {
    async begin(scope, idempotencyKey, requestFingerprint) {
      const at = now();
      const id = idOf(scope, idempotencyKey);
      const fingerprint = keyed(requestFingerprint);
      const createdMs = transaction(db, () => {
        expire(at);
        const found = sql.get.get(id) as Row | undefined;
        if (found && found.expires_ms > at) {
          if (found.fingerprint !== fingerprint) throw idempotencyErrors.reused();
          if (found.reply === null) throw idempotencyErrors.inProgress();
          return JSON.parse(found.reply) as Answer;
        }
        // An expired entry not yet walked away: the insert below replaces it.
        if (found) size -= 1;
        if (!makeRoom(at)) throw idempotencyErrors.full();
        // created_ms tells this entry from a later one for the same key (see complete/abandon).
        const created = found && found.created_ms >= at ? found.created_ms + 1 : at;
        sql.insert.run(id, fingerprint, created, at + ttlMs);
        size += 1;
        return created;
      });
      if (typeof createdMs !== 'number') return { kind: 'replay', reply: replayed(createdMs) };
      return {
        kind: 'new',
        ticket: onceTicket(
          async (reply) => {
            sql.complete.run(storedReply(reply), id, createdMs);
          },
          async () => {
            size -= Number(sql.abandon.run(id, createdMs).changes);
          },
        ),
      };
    },

    async has(scope, idempotencyKey) {
      const found = sql.get.get(idOf(scope, idempotencyKey)) as Row | undefined;
      return found !== undefined && found.expires_ms > now();
    },

    size: async () => size,

    async forgetAnswers(requestIds) {
      if (requestIds.size === 0) return 0;
      const forgotten = Number(sql.forget.run(JSON.stringify([...requestIds])).changes);
      size -= forgotten;
      return forgotten;
    },
  };
}
