// Outbox entries read from and written to either store whole (storage/record-set.ts), for `npm run
// store -- move`. A pending entry is carried whatever its age, due at its next attempt; its lease
// is not carried (no relay runs during a move, and delivery is at least once, deduped by
// webhook-id). A delivered or given-up entry (its body already emptied) is carried while
// DATA_RETENTION_DAYS after it finished have not passed, and expires then on the other side too.
import type { DatabaseSync } from 'node:sqlite';
import { lua, type RedisConnection } from '../storage/redis/connection.ts';
import { countKeys, groupValues } from '../storage/redis/scan-values.ts';
import { pages, type RecordSet, type RecordsWritten } from '../storage/record-set.ts';
import { transaction } from '../storage/sqlite/database.ts';
import { WEBHOOK_CHANNEL, type OutboxEntry } from './outbox.ts';
import { toEntry as fromHash } from './redis-outbox.ts';
import { toEntry as fromRow } from './sqlite-outbox.ts';

export interface MovedEvent extends OutboxEntry {
  /** The keyed hash of the event's number (erasure finds the event by it). */
  numberHash: string;
}

const DAY_MS = 86_400_000;
const expiresAt = (e: OutboxEntry, retentionDays: number) => (e.state === 'pending' ? null : (e.finishedAt ?? e.createdAt) + retentionDays * DAY_MS);
const kept = (e: OutboxEntry, retentionDays: number, nowMs: number) => (expiresAt(e, retentionDays) ?? Number.POSITIVE_INFINITY) > nowMs;

export function sqliteOutboxRecords(db: DatabaseSync, options: { retentionDays: number }): RecordSet<MovedEvent> {
  const sql = {
    page: db.prepare('SELECT * FROM webhook_outbox WHERE event_id > ? ORDER BY event_id LIMIT ?'),
    count: db.prepare('SELECT COUNT(*) AS n FROM webhook_outbox'),
    remove: db.prepare('DELETE FROM webhook_outbox WHERE event_id = ?'),
    insert:
      db.prepare(`INSERT INTO webhook_outbox (event_id, type, channel, callback_id, number_hash, masked_number, body, state, created_ms, next_attempt_ms, attempts, last_error, finished_ms)
      VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`),
  };
  type Row = Parameters<typeof fromRow>[0] & { number_hash: string };
  return {
    count: async () => (sql.count.get() as { n: number }).n,
    async *read(nowMs) {
      for await (const rows of pages<Row>((after, size) => sql.page.all(after?.event_id ?? '', size) as unknown as Row[])) {
        yield rows.map((r): MovedEvent => ({ ...fromRow(r), numberHash: r.number_hash })).filter((e) => kept(e, options.retentionDays, nowMs));
      }
    },
    async write(events) {
      return transaction(db, () => {
        const written: RecordsWritten = { added: 0, replaced: 0, refused: [] };
        for (const e of events) {
          const existed = sql.remove.run(e.eventId).changes > 0;
          sql.insert.run(
            e.eventId,
            e.type,
            e.channel,
            e.callbackId,
            e.numberHash,
            e.maskedNumber,
            e.body,
            e.state,
            e.createdAt,
            e.nextAttemptAt,
            e.attempts,
            e.lastError,
            e.finishedAt,
          );
          if (existed) written.replaced++;
          else written.added++;
        }
        return written;
      });
    },
  };
}

// KEYS: the entry's due set. ARGV: space, id, state, next, expireAt, fields…
const PUT = lua(`
local space, id = ARGV[1], ARGV[2]
local k = space .. 'ev:' .. id
local existed = redis.call('EXISTS', k) == 1
if existed then
  redis.call('ZREM', space .. (redis.call('HGET', k, 'dueset') or 'due'), id)
  redis.call('DEL', k)
end
local fields = {}
for i = 6, #ARGV do fields[#fields + 1] = ARGV[i] end
redis.call('HSET', k, unpack(fields))
if ARGV[3] == 'pending' then redis.call('ZADD', KEYS[1], tonumber(ARGV[4]), id) else redis.call('PEXPIREAT', k, tonumber(ARGV[5])) end
if existed then return 'replaced' end
return 'added'
`);

export function redisOutboxRecords(connection: RedisConnection, options: { retentionDays: number }): RecordSet<MovedEvent> {
  const space = connection.keyspace('outbox');
  const dueSet = (e: OutboxEntry) => (e.channel === WEBHOOK_CHANNEL ? 'due' : `due:${e.channel}`);
  return {
    count: () => countKeys(connection, space, `${space}ev:*`),
    async *read(nowMs) {
      for await (const batch of groupValues(connection, space, `${space}ev:*`, 'hash')) {
        yield batch
          .map(([, h]) => h)
          .filter((h) => h.id !== undefined)
          .map((h): MovedEvent => ({ ...fromHash(h), numberHash: h.numberHash ?? '' }))
          .filter((e) => kept(e, options.retentionDays, nowMs));
      }
    },
    async write(events) {
      const answers = await Promise.all(
        events.map((e) => {
          const fields = {
            id: e.eventId,
            type: e.type,
            channel: e.channel,
            dueset: dueSet(e),
            callbackId: e.callbackId,
            numberHash: e.numberHash,
            masked: e.maskedNumber,
            // A finished entry's body (it holds the number) goes, as the store's own settling drops it.
            ...(e.body !== null && e.state === 'pending' && { body: e.body }),
            state: e.state,
            attempts: e.attempts,
            created: e.createdAt,
            next: e.nextAttemptAt,
            owner: '',
            lease: '',
            ...(e.lastError !== null && { error: e.lastError }),
            ...(e.finishedAt !== null && { finished: e.finishedAt }),
          };
          const args = [space, e.eventId, e.state, e.nextAttemptAt, expiresAt(e, options.retentionDays) ?? '', ...Object.entries(fields).flat()];
          return connection.evalScript('outbox.move.write', PUT, [`${space}${dueSet(e)}`], args);
        }),
      );
      return {
        added: answers.filter((a) => a === 'added').length,
        replaced: answers.filter((a) => a === 'replaced').length,
        refused: [],
      };
    },
  };
}
