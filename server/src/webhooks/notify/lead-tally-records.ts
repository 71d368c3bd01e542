// The daily digest's leads (lead-tally.ts) read from either store whole and written through the
// tally's own `record`, for `npm run store -- move`: the leads of the last week, each with the time
// the visitor asked (the week counts from it on the other side too) and where it stands.
import type { DatabaseSync } from 'node:sqlite';
import type { RedisConnection } from '../../storage/redis/connection.ts';
import { pages, RECORD_BATCH, type RecordSet } from '../../storage/record-set.ts';
import { TALLY_KEEP_MS, type LeadTally, type TalliedLead, type TallyOutcome } from './lead-tally.ts';

async function writeThrough(tally: LeadTally, leads: readonly TalliedLead[], held: (ids: string[]) => Promise<number>, nowMs: number) {
  const replaced = await held(leads.map((l) => l.callbackId));
  for (const lead of leads) await tally.record(lead, nowMs);
  return { added: leads.length - replaced, replaced, refused: [] };
}

export function sqliteLeadTallyRecords(db: DatabaseSync, tally: LeadTally): RecordSet<TalliedLead> {
  const sql = {
    page: db.prepare(
      'SELECT callback_id AS callbackId, created_ms AS createdAt, utm_source AS utmSource, outcome FROM notify_leads WHERE created_ms >= ? AND callback_id > ? ORDER BY callback_id LIMIT ?',
    ),
    count: db.prepare('SELECT COUNT(*) AS n FROM notify_leads'),
    held: db.prepare('SELECT COUNT(*) AS n FROM notify_leads WHERE callback_id IN (SELECT value FROM json_each(?))'),
  };
  return {
    count: async () => (sql.count.get() as { n: number }).n,
    read: (nowMs) => pages<TalliedLead>((after, size) => sql.page.all(nowMs - TALLY_KEEP_MS, after?.callbackId ?? '', size) as unknown as TalliedLead[]),
    write: (leads, nowMs) => writeThrough(tally, leads, async (ids) => (sql.held.get(JSON.stringify(ids)) as { n: number }).n, nowMs),
  };
}

export function redisLeadTallyRecords(connection: RedisConnection, tally: LeadTally): RecordSet<TalliedLead> {
  const space = connection.keyspace('notify');
  const [leadsKey, leadKey] = [`${space}leads`, `${space}lead`];
  return {
    count: () => connection.run('notify.move.count', (c) => c.zCard(leadsKey)),
    async *read(nowMs) {
      for (let offset = 0; ; offset += RECORD_BATCH) {
        const page = await connection.run('notify.move.range', (c) => c.zRangeWithScores(leadsKey, offset, offset + RECORD_BATCH - 1));
        if (page.length === 0) return;
        const values = await connection.run('notify.move.read', (c) =>
          c.hmGet(
            leadKey,
            page.map((p) => p.value),
          ),
        );
        yield page.flatMap(({ value: callbackId, score: createdAt }, i) => {
          const v = values[i];
          if (typeof v !== 'string' || createdAt < nowMs - TALLY_KEEP_MS) return [];
          const [utmSource, outcome] = JSON.parse(v) as [string | null, TallyOutcome];
          return [{ callbackId, createdAt, utmSource, outcome }];
        });
      }
    },
    write: (leads, nowMs) =>
      writeThrough(tally, leads, async (ids) => (await connection.run('notify.move.held', (c) => c.zmScore(leadsKey, ids))).filter((s) => s !== null).length, nowMs),
  };
}
