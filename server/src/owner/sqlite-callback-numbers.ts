// CallBackNumbers in the SQLite file (table callback_numbers). The privacy purge's secure_delete
// and WAL truncation apply to its deleted rows as to the jobs' emptied numbers.
import type { DatabaseSync } from 'node:sqlite';
import { CALL_BACK_DAYS, type CallBackNumbers } from './callback-numbers.ts';

export function createSqliteCallBackNumbers(db: DatabaseSync): CallBackNumbers {
  const sql = {
    keep: db.prepare('INSERT INTO callback_numbers (callback_id, number_hash, e164, until_ms) VALUES (?, ?, ?, ?) ON CONFLICT DO UPDATE SET until_ms = excluded.until_ms'),
    expired: db.prepare('DELETE FROM callback_numbers WHERE until_ms <= ?'),
    get: db.prepare('SELECT e164 FROM callback_numbers WHERE callback_id = ? AND until_ms > ?'),
    ofNumber: db.prepare('SELECT callback_id AS callbackId, until_ms AS untilMs FROM callback_numbers WHERE number_hash = ?'),
    erase: db.prepare('DELETE FROM callback_numbers WHERE number_hash = ?'),
  };
  return {
    async keep(id, e164, hash, until) {
      // Kept until `until`, from now: anything due before now is over.
      sql.expired.run(until - CALL_BACK_DAYS * 86_400_000);
      sql.keep.run(id, hash, e164, until);
    },
    async get(id, now) {
      return (sql.get.get(id, now) as { e164: string } | undefined)?.e164 ?? null;
    },
    async ofNumber(hash) {
      return sql.ofNumber.all(hash) as unknown as Array<{ callbackId: string; untilMs: number }>;
    },
    async erase(hash) {
      return Number(sql.erase.run(hash).changes);
    },
  };
}
