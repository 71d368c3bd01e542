// The report's visitor values in the SQLite file (lead_facts, dialog_opens), found and erased for a
// visitor's data on request (erase-values.ts). A year of a flood's open groups is millions of rows:
// they are read a batch at a time (leads by rowid, open groups by their key) with the event loop free
// between batches, so other requests are answered meanwhile, and only values holding a digit are
// read at all (GLOB in SQL: a number is written with digits). Each batch's changes are one
// transaction; secure_delete (database.ts) overwrites the old values in the file.
import type { DatabaseSync } from 'node:sqlite';
import { transaction } from '../storage/sqlite/database.ts';
import { collectMatches, erasedGroup, matchesOf, yieldToRequests, type ValueBatch, type ValueMatches, type ValuesErased, type ValueTest } from './erase-values.ts';
import { REPORT_DIMENSIONS, type OpenCount } from './report-store.ts';
import { type FactRow, toFact } from './sqlite-report-store.ts';

const BATCH = 500;
const HAS_DIGIT = REPORT_DIMENSIONS.map((d) => `${d} GLOB '*[0-9]*'`).join(' OR ');
const GROUP_IS = 'day = ? AND source = ? AND medium = ? AND campaign = ? AND department = ? AND page = ?';

export function sqliteReportValues(db: DatabaseSync) {
  const sql = {
    leads: db.prepare(`SELECT rowid AS r, * FROM lead_facts WHERE rowid > ? AND (${HAS_DIGIT}) ORDER BY rowid LIMIT ${BATCH}`),
    opens: db.prepare(
      `SELECT * FROM dialog_opens WHERE (day, source, medium, campaign, department, page) > (?, ?, ?, ?, ?, ?) AND (${HAS_DIGIT}) ORDER BY day, source, medium, campaign, department, page LIMIT ${BATCH}`,
    ),
    setLead: db.prepare('UPDATE lead_facts SET source = ?, medium = ?, campaign = ?, department = ?, page = ? WHERE callback_id = ?'),
    dropOpen: db.prepare(`DELETE FROM dialog_opens WHERE ${GROUP_IS} RETURNING count`),
    addOpen: db.prepare(
      'INSERT INTO dialog_opens (day, source, medium, campaign, department, page, count) VALUES (?, ?, ?, ?, ?, ?, ?) ON CONFLICT DO UPDATE SET count = count + excluded.count',
    ),
  };

  /** Every lead and open group with a matching value, a batch at a time. */
  async function* walk(test: ValueTest): AsyncGenerator<ValueBatch> {
    for (let after = 0; ; ) {
      const rows = sql.leads.all(after) as unknown as Array<FactRow & { r: number }>;
      if (rows.length === 0) break;
      after = rows.at(-1)!.r;
      yield { leads: matchesOf(rows.map(toFact), test), opens: [] };
      await yieldToRequests();
    }
    for (let after: OpenCount = { day: '', source: '', medium: '', campaign: '', department: '', page: '', count: 0 }; ; ) {
      const rows = sql.opens.all(after.day, after.source, after.medium, after.campaign, after.department, after.page) as unknown as OpenCount[];
      if (rows.length === 0) break;
      after = rows.at(-1)!;
      yield { leads: [], opens: matchesOf(rows.map((o) => ({ ...o })), test) };
      await yieldToRequests();
    }
  }

  return {
    find: (test: ValueTest, limit: number): Promise<ValueMatches> => collectMatches(walk(test), limit),
    async erase(test: ValueTest): Promise<ValuesErased> {
      const erased = { leads: 0, opens: 0 };
      for await (const batch of walk(test)) {
        if (batch.leads.length + batch.opens.length === 0) continue;
        transaction(db, () => {
          for (const [fact, fields] of batch.leads) {
            const g = erasedGroup(fact, fields);
            erased.leads += Number(sql.setLead.run(g.source, g.medium, g.campaign, g.department, g.page, fact.callbackId).changes);
          }
          for (const [open, fields] of batch.opens) {
            // The count as it is now: an open counted since the batch was read is not lost.
            const dropped = sql.dropOpen.get(open.day, open.source, open.medium, open.campaign, open.department, open.page) as { count: number } | undefined;
            if (!dropped) continue;
            const g = erasedGroup(open, fields);
            sql.addOpen.run(open.day, g.source, g.medium, g.campaign, g.department, g.page, dropped.count);
            erased.opens++;
          }
        });
      }
      return erased;
    },
  };
}
