// The numbers kept for the owner's "call back now" (callback-numbers.ts), read from and written to
// either store whole, for `npm run store -- move`: only those still within their time, each
// expiring at that time on the other side too (Redis: the key's expiry at `untilMs`, so a full
// number lingers no longer than its use; SQLite: deleted as new ones come, never answered after).
import type { DatabaseSync } from 'node:sqlite';
import type { RedisConnection } from '../storage/redis/connection.ts';
import { countKeys, groupValues } from '../storage/redis/scan-values.ts';
import { pages, type RecordSet } from '../storage/record-set.ts';

export interface CallBackNumberEntry {
  callbackId: string;
  e164: string;
  numberHash: string;
  untilMs: number;
}

export function sqliteCallBackNumberRecords(db: DatabaseSync): RecordSet<CallBackNumberEntry> {
  const sql = {
    page: db.prepare(
      'SELECT callback_id AS callbackId, e164, number_hash AS numberHash, until_ms AS untilMs FROM callback_numbers WHERE until_ms > ? AND callback_id > ? ORDER BY callback_id LIMIT ?',
    ),
    count: db.prepare('SELECT COUNT(*) AS n FROM callback_numbers'),
    exists: db.prepare('SELECT 1 FROM callback_numbers WHERE callback_id = ?'),
    put: db.prepare(
      'INSERT INTO callback_numbers (callback_id, number_hash, e164, until_ms) VALUES (?, ?, ?, ?) ON CONFLICT DO UPDATE SET number_hash = excluded.number_hash, e164 = excluded.e164, until_ms = excluded.until_ms',
    ),
  };
  return {
    count: async () => (sql.count.get() as { n: number }).n,
    read: (nowMs) => pages<CallBackNumberEntry>((after, size) => sql.page.all(nowMs, after?.callbackId ?? '', size) as unknown as CallBackNumberEntry[]),
    async write(entries) {
      let replaced = 0;
      for (const e of entries) {
        if (sql.exists.get(e.callbackId)) replaced++;
        sql.put.run(e.callbackId, e.numberHash, e.e164, e.untilMs);
      }
      return { added: entries.length - replaced, replaced, refused: [] };
    },
  };
}

export function redisCallBackNumberRecords(connection: RedisConnection): RecordSet<CallBackNumberEntry> {
  const space = connection.keyspace('callback-numbers');
  return {
    count: () => countKeys(connection, space, `${space}n:*`),
    async *read(nowMs) {
      for await (const batch of groupValues(connection, space, `${space}n:*`, 'string')) {
        yield batch.flatMap(([key, v]) => {
          const entry = JSON.parse(v) as Omit<CallBackNumberEntry, 'callbackId'>;
          return entry.untilMs > nowMs ? [{ callbackId: key.slice(`${space}n:`.length), ...entry }] : [];
        });
      }
    },
    async write(entries) {
      const existed = await Promise.all(
        entries.map((e) =>
          connection.run('callback-numbers.move.write', async (c) => {
            const key = `${space}n:${e.callbackId}`;
            const before = await c.exists(key);
            await c.set(key, JSON.stringify({ e164: e.e164, numberHash: e.numberHash, untilMs: e.untilMs }), { PXAT: e.untilMs });
            return before === 1;
          }),
        ),
      );
      const replaced = existed.filter(Boolean).length;
      return { added: entries.length - replaced, replaced, refused: [] };
    },
  };
}
