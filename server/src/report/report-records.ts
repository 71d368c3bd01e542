// The lead report's facts and open counts read from either store whole, for `npm run store -- move`.
// Facts are written through the report store's own steps (addLead, markPlaced, finish), so whatever a
// store derives from them is made as the relay makes it; a fact the target holds keeps what it knows
// and takes what the moved one adds. Open counts are written as counts (replacing the target's for
// the same day and group) with the day's index of opens beside them (put-opens.lua).
import type { DatabaseSync } from 'node:sqlite';
import type { RedisConnection } from '../storage/redis/connection.ts';
import { luaFile } from '../storage/redis/lua-file.ts';
import { dayKeys } from './redis-open-index.ts';
import { groupKeys } from '../storage/redis/scan-values.ts';
import { RECORD_BATCH, type RecordSet } from '../storage/record-set.ts';
import { transaction } from '../storage/sqlite/database.ts';
import { REPORT_DIMENSIONS, REPORT_RETENTION_DAYS, type LeadFact, type OpenCount, type ReportStore } from './report-store.ts';

const DAY_MS = 86_400_000;
const RETENTION_MS = REPORT_RETENTION_DAYS * DAY_MS;
/** Opens are read this many days at a time. */
const OPEN_DAYS = 31;
const dayOf = (ms: number) => new Date(ms).toISOString().slice(0, 10);

interface Held {
  count(): Promise<number>;
  /** How many of these callback ids the store holds a fact of. */
  existing(ids: string[]): Promise<number>;
}

function leadRecords(store: ReportStore, held: Held): RecordSet<LeadFact> {
  return {
    count: () => held.count(),
    async *read(nowMs) {
      // A day at a time: what is in memory is one day's leads, whatever the year holds.
      for (let from = nowMs - RETENTION_MS; from <= nowMs + DAY_MS; from += DAY_MS) {
        const facts = await store.leads(from, from + DAY_MS);
        for (let i = 0; i < facts.length; i += RECORD_BATCH) yield facts.slice(i, i + RECORD_BATCH);
      }
    },
    async write(facts) {
      const replaced = await held.existing(facts.map((f) => f.callbackId));
      await Promise.all(
        facts.map(async (f) => {
          const { placed, outcome, answerSeconds, talkSeconds, ...lead } = f;
          await store.addLead(lead);
          if (placed) await store.markPlaced(f.callbackId);
          if (outcome) await store.finish(f.callbackId, outcome, answerSeconds !== null && talkSeconds !== null ? { answerSeconds, talkSeconds } : null);
        }),
      );
      return { added: facts.length - replaced, replaced, refused: [] };
    },
  };
}

function openRecords(store: ReportStore, count: () => Promise<number>, put: (opens: readonly OpenCount[]) => Promise<number>): RecordSet<OpenCount> {
  return {
    count,
    async *read(nowMs) {
      for (let from = nowMs - RETENTION_MS; from <= nowMs + DAY_MS; from += OPEN_DAYS * DAY_MS) {
        const opens = await store.opens(dayOf(from), dayOf(from + (OPEN_DAYS - 1) * DAY_MS));
        for (let i = 0; i < opens.length; i += RECORD_BATCH) yield opens.slice(i, i + RECORD_BATCH);
      }
    },
    async write(opens) {
      const replaced = await put(opens);
      return { added: opens.length - replaced, replaced, refused: [] };
    },
  };
}

export function sqliteReportRecords(db: DatabaseSync, store: ReportStore): { leads: RecordSet<LeadFact>; opens: RecordSet<OpenCount> } {
  const sql = {
    leads: db.prepare('SELECT COUNT(*) AS n FROM lead_facts'),
    existing: db.prepare('SELECT COUNT(*) AS n FROM lead_facts WHERE callback_id IN (SELECT value FROM json_each(?))'),
    opens: db.prepare('SELECT COUNT(*) AS n FROM dialog_opens'),
    exists: db.prepare('SELECT 1 FROM dialog_opens WHERE day = ? AND source = ? AND medium = ? AND campaign = ? AND department = ? AND page = ?'),
    put: db.prepare(
      'INSERT INTO dialog_opens (day, source, medium, campaign, department, page, count) VALUES (?, ?, ?, ?, ?, ?, ?) ON CONFLICT DO UPDATE SET count = excluded.count',
    ),
  };
  const n = (statement: typeof sql.leads, ...args: string[]) => (statement.get(...args) as { n: number }).n;
  const leads = leadRecords(store, { count: async () => n(sql.leads), existing: async (ids) => n(sql.existing, JSON.stringify(ids)) });
  // One transaction per batch of facts: the store's steps run synchronously inside it.
  const write = leads.write;
  leads.write = async (facts, nowMs) => {
    db.exec('BEGIN IMMEDIATE');
    try {
      const written = await write(facts, nowMs);
      db.exec('COMMIT');
      return written;
    } catch (err) {
      if (db.isTransaction) db.exec('ROLLBACK');
      throw err;
    }
  };
  const opens = openRecords(
    store,
    async () => n(sql.opens),
    async (counts) =>
      transaction(db, () => {
        let replaced = 0;
        for (const o of counts) {
          const group = [o.day, ...REPORT_DIMENSIONS.map((d) => o[d])];
          if (sql.exists.get(...group)) replaced++;
          sql.put.run(...group, o.count);
        }
        return replaced;
      }),
  );
  return { leads, opens };
}

const DAY_KEY = /^opens:\d{4}-\d{2}-\d{2}$/;
const PUT_OPENS = luaFile(new URL('./report-records/put-opens.lua', import.meta.url));

export function redisReportRecords(connection: RedisConnection, store: ReportStore): { leads: RecordSet<LeadFact>; opens: RecordSet<OpenCount> } {
  const space = connection.keyspace('report');
  const leads = leadRecords(store, {
    count: () => connection.run('report.move.count', (c) => c.zCard(`${space}leads`)),
    existing: async (ids) => (await connection.run('report.move.held', (c) => c.zmScore(`${space}leads`, ids))).filter((s) => s !== null).length,
  });
  const opens = openRecords(
    store,
    async () => {
      let n = 0;
      for await (const keys of groupKeys(connection, space, `${space}opens:*`)) {
        // A day's opens hash, not its index beside it (opens:<day>:total, opens:<day>:by:<dimension>).
        for (const key of keys.filter((k) => DAY_KEY.test(k.slice(space.length)))) n += await connection.run('report.move.opens', (c) => c.hLen(key));
      }
      return n;
    },
    async (counts) => {
      const answers = await Promise.all(
        counts.map((o) =>
          connection.evalScript('report.move.opens', PUT_OPENS, dayKeys(space, o.day), [
            JSON.stringify(REPORT_DIMENSIONS.map((d) => o[d])),
            o.count,
            // As the store's own count leaves it: the retention and two days after the day.
            Date.parse(`${o.day}T00:00:00Z`) + RETENTION_MS + 3 * DAY_MS,
          ]),
        ),
      );
      return answers.filter((a) => a === 1).length;
    },
  );
  return { leads, opens };
}
