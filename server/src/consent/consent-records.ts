// Consent records read from and written to either store whole (storage/record-set.ts), for `npm run
// store -- move`: each with the time it was made, so it is deleted DATA_RETENTION_DAYS after that
// on the other side too (Redis: the key's expiry; SQLite: the purge). A record of a callback the
// target already holds replaces the target's. (With CONSENT_LOG_PATH the records are in that file,
// which no move touches.)
import type { DatabaseSync } from 'node:sqlite';
import type { RedisConnection } from '../storage/redis/connection.ts';
import { countKeys, groupValues } from '../storage/redis/scan-values.ts';
import { pages, type RecordSet, type RecordsWritten } from '../storage/record-set.ts';
import { transaction } from '../storage/sqlite/database.ts';
import type { ConsentRecord } from './consent-log.ts';
import { toRecord } from './sqlite-consent-log.ts';

const DAY_MS = 86_400_000;
const expiresAt = (r: ConsentRecord, retentionDays: number) => Date.parse(r.at) + retentionDays * DAY_MS;

export function sqliteConsentRecords(db: DatabaseSync, options: { retentionDays: number }): RecordSet<ConsentRecord> {
  const sql = {
    page: db.prepare('SELECT id, at_ms, callback_id, origin, consented, text_sha256, privacy_url, number_hmac FROM consent WHERE id > ? ORDER BY id LIMIT ?'),
    count: db.prepare('SELECT COUNT(*) AS n FROM consent'),
    remove: db.prepare('DELETE FROM consent WHERE callback_id = ?'),
    insert: db.prepare('INSERT INTO consent (at_ms, callback_id, origin, consented, text_sha256, privacy_url, number_hmac) VALUES (?, ?, ?, ?, ?, ?, ?)'),
  };
  type Row = Parameters<typeof toRecord>[0] & { id: number };
  return {
    count: async () => (sql.count.get() as { n: number }).n,
    async *read(nowMs) {
      for await (const rows of pages<Row>((after, size) => sql.page.all(after?.id ?? 0, size) as unknown as Row[])) {
        yield rows.map(toRecord).filter((r) => expiresAt(r, options.retentionDays) > nowMs);
      }
    },
    async write(records) {
      return transaction(db, () => {
        const written: RecordsWritten = { added: 0, replaced: 0, refused: [] };
        for (const r of records) {
          const existed = sql.remove.run(r.callbackId).changes > 0;
          sql.insert.run(Date.parse(r.at), r.callbackId, r.origin, r.consented ? 1 : 0, r.textSha256, r.privacyUrl, r.numberHmac);
          if (existed) written.replaced++;
          else written.added++;
        }
        return written;
      });
    },
  };
}

export function redisConsentRecords(connection: RedisConnection, options: { retentionDays: number }): RecordSet<ConsentRecord> {
  const space = connection.keyspace('consent');
  return {
    count: () => countKeys(connection, space, `${space}*`),
    async *read(nowMs) {
      for await (const batch of groupValues(connection, space, `${space}*`, 'string')) {
        yield batch.map(([, v]) => JSON.parse(v) as ConsentRecord).filter((r) => expiresAt(r, options.retentionDays) > nowMs);
      }
    },
    async write(records) {
      const existed = await Promise.all(
        records.map((r) =>
          connection.run('consent.move.write', async (c) => {
            const key = `${space}${r.callbackId}`;
            const before = await c.exists(key);
            await c.set(key, JSON.stringify(r), { PXAT: expiresAt(r, options.retentionDays) });
            return before === 1;
          }),
        ),
      );
      const replaced = existed.filter(Boolean).length;
      return { added: records.length - replaced, replaced, refused: [] };
    },
  };
}
