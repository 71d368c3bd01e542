// The report's visitor values in the SQLite file (lead_facts, dialog_opens), found and erased for a
// visitor's data on request (erase-values.ts). A year of a flood's open groups is millions of rows.
// SQL keeps only the values holding the number's digits in order (GLOB), and each statement looks
// at a bounded slice (5,000 leads by rowid; one day's open groups, at most MAX_OPEN_GROUPS_PER_DAY),
// with the event loop free between slices, so other requests are answered meanwhile. Each slice's
// changes are one transaction; secure_delete (database.ts) overwrites the old values in the file.
import type { DatabaseSync } from 'node:sqlite';
import { transaction } from '../storage/sqlite/database.ts';
import { collectMatches, digitsPattern, erasedGroup, matchesOf, yieldToRequests, type ValueBatch, type ValueMatches, type ValuesErased, type ValueTest } from './erase-values.ts';
import { REPORT_DIMENSIONS, type OpenCount } from './report-store.ts';
import { type FactRow, toFact } from './sqlite-report-store.ts';

const LEADS_PER_SLICE = 5_000;
const HOLDS_DIGITS = REPORT_DIMENSIONS.map((d) => `${d} GLOB ?`).join(' OR ');
const GROUP_IS = 'day = ? AND source = ? AND medium = ? AND campaign = ? AND department = ? AND page = ?';

export function sqliteReportValues(db: DatabaseSync) {
  const sql = {
    lastLead: db.prepare('SELECT MAX(rowid) AS last FROM lead_facts'),
    leads: db.prepare(`SELECT * FROM lead_facts WHERE rowid > ? AND rowid <= ? AND (${HOLDS_DIGITS})`),
    nextDay: db.prepare('SELECT day FROM dialog_opens WHERE day > ? ORDER BY day LIMIT 1'),
    opens: db.prepare(`SELECT * FROM dialog_opens WHERE day = ? AND (${HOLDS_DIGITS})`),
    setLead: db.prepare('UPDATE lead_facts SET source = ?, medium = ?, campaign = ?, department = ?, page = ? WHERE callback_id = ?'),
    dropOpen: db.prepare(`DELETE FROM dialog_opens WHERE ${GROUP_IS} RETURNING count`),
    addOpen: db.prepare(
      'INSERT INTO dialog_opens (day, source, medium, campaign, department, page, count) VALUES (?, ?, ?, ?, ?, ?, ?) ON CONFLICT DO UPDATE SET count = count + excluded.count',
    ),
  };

  /** Every lead and open group with a matching value, a slice at a time. */
  async function* walk(test: ValueTest): AsyncGenerator<ValueBatch> {
    const patterns = REPORT_DIMENSIONS.map(() => digitsPattern(test.digits));
    const last = (sql.lastLead.get() as { last: number | null }).last ?? 0;
    for (let after = 0; after < last; after += LEADS_PER_SLICE) {
      const rows = sql.leads.all(after, after + LEADS_PER_SLICE, ...patterns) as unknown as FactRow[];
      yield { leads: matchesOf(rows.map(toFact), test), opens: [] };
      await yieldToRequests();
    }
    for (let day = ''; ; ) {
      const next = sql.nextDay.get(day) as { day: string } | undefined;
      if (!next) break;
      day = next.day;
      yield {
        leads: [],
        opens: matchesOf(
          (sql.opens.all(day, ...patterns) as unknown as OpenCount[]).map((o) => ({ ...o })),
          test,
        ),
      };
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
