// NeverCallList in the SQLite file (table never_call).
import type { DatabaseSync } from 'node:sqlite';
import type { NeverCallList } from './never-call-list.ts';

export function createSqliteNeverCallList(db: DatabaseSync): NeverCallList {
  const sql = {
    add: db.prepare('INSERT INTO never_call (number_hash, at_ms) VALUES (?, ?) ON CONFLICT DO NOTHING'),
    get: db.prepare('SELECT at_ms FROM never_call WHERE number_hash = ?'),
  };
  const listedAt = async (hash: string) => (sql.get.get(hash) as { at_ms: number } | undefined)?.at_ms ?? null;
  return {
    async add(hash, at) {
      sql.add.run(hash, at);
    },
    has: async (hash) => (await listedAt(hash)) !== null,
    listedAt,
  };
}
