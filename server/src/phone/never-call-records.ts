// The never-call list read from either store whole and written through the list's own `add`, for
// `npm run store -- move`. The owner's word does not expire: every entry is carried. A number the
// target already lists keeps its own listing time (the list records when a number was first listed).
import type { DatabaseSync } from 'node:sqlite';
import type { RedisConnection } from '../storage/redis/connection.ts';
import { pages, RECORD_BATCH, type RecordSet } from '../storage/record-set.ts';
import type { NeverCallList } from './never-call-list.ts';

export interface NeverCallEntry {
  numberHash: string;
  at: number;
}

async function writeThrough(list: NeverCallList, entries: readonly NeverCallEntry[]) {
  let kept = 0;
  for (const e of entries) {
    if ((await list.listedAt(e.numberHash)) !== null) kept++;
    else await list.add(e.numberHash, e.at);
  }
  return { added: entries.length - kept, replaced: kept, refused: [] };
}

export function sqliteNeverCallRecords(db: DatabaseSync, list: NeverCallList): RecordSet<NeverCallEntry> {
  const page = db.prepare('SELECT number_hash AS numberHash, at_ms AS at FROM never_call WHERE number_hash > ? ORDER BY number_hash LIMIT ?');
  const count = db.prepare('SELECT COUNT(*) AS n FROM never_call');
  return {
    count: async () => (count.get() as { n: number }).n,
    read: () => pages<NeverCallEntry>((after, size) => page.all(after?.numberHash ?? '', size) as unknown as NeverCallEntry[]),
    write: (entries) => writeThrough(list, entries),
  };
}

export function redisNeverCallRecords(connection: RedisConnection, list: NeverCallList): RecordSet<NeverCallEntry> {
  const key = `${connection.keyspace('nevercall')}numbers`;
  return {
    count: () => connection.run('nevercall.move.count', (c) => c.hLen(key)),
    async *read() {
      let cursor = '0';
      do {
        const page = await connection.run('nevercall.move.read', (c) => c.hScan(key, cursor, { COUNT: RECORD_BATCH }));
        cursor = String(page.cursor);
        if (page.entries.length > 0) yield page.entries.map(({ field, value }) => ({ numberHash: field, at: Number(value) }));
      } while (cursor !== '0');
    },
    write: (entries) => writeThrough(list, entries),
  };
}
