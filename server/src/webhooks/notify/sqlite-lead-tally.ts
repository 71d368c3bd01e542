// LeadTally in the SQLite file (table notify_leads): one row per lead, its standing overwritten by
// each step; rows older than a week are deleted as new ones come.
import type { DatabaseSync } from 'node:sqlite';
import { sourceOf, TALLY_KEEP_MS, type LeadTally, type TallyOutcome } from './lead-tally.ts';

export function createSqliteLeadTally(options: { db: DatabaseSync }): LeadTally {
  const { db } = options;
  const sql = {
    upsert: db.prepare(`INSERT INTO notify_leads (callback_id, created_ms, utm_source, outcome) VALUES (?, ?, ?, ?)
      ON CONFLICT (callback_id) DO UPDATE SET outcome = excluded.outcome`),
    prune: db.prepare('DELETE FROM notify_leads WHERE created_ms < ?'),
    count: db.prepare('SELECT utm_source AS source, outcome, COUNT(*) AS count FROM notify_leads WHERE created_ms >= ? AND created_ms < ? GROUP BY utm_source, outcome'),
  };
  return {
    async record(lead, nowMs) {
      sql.upsert.run(lead.callbackId, lead.createdAt, sourceOf(lead.utmSource), lead.outcome);
      sql.prune.run(nowMs - TALLY_KEEP_MS);
    },
    async count(fromMs, toMs) {
      return (sql.count.all(fromMs, toMs) as { source: string | null; outcome: TallyOutcome; count: number }[]).map((r) => ({ ...r }));
    },
  };
}
