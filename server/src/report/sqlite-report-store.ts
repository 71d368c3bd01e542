// ReportStore in the SQLite file (tables lead_facts and dialog_opens). Facts older than
// REPORT_RETENTION_DAYS are deleted as new leads come in: nothing else reads them. The report
// reads a day at a time, grouped in SQL (sqlite-report-days.ts).
import type { DatabaseSync } from 'node:sqlite';
import { transaction } from '../storage/sqlite/database.ts';
import { markOf } from '../tracking-consent/snapshot.ts';
import { sqliteReportValues } from './sqlite-report-values.ts';
import {
  LEAD_GROUP_DAYS,
  MAX_OPEN_GROUPS_PER_DAY,
  OTHER_GROUP,
  REPORT_RETENTION_DAYS,
  type LeadEnd,
  type LeadFact,
  type LeadSource,
  type OpenCount,
  type ReportStore,
} from './report-store.ts';
import { sqliteReportDays } from './sqlite-report-days.ts';

export interface FactRow {
  callback_id: string;
  at_ms: number;
  requested_as: LeadSource;
  consent: string;
  source: string;
  medium: string;
  campaign: string;
  department: string;
  page: string;
  placed: number;
  outcome: LeadEnd | null;
  answer_seconds: number | null;
  talk_seconds: number | null;
}

export const toFact = (r: FactRow): LeadFact => ({
  callbackId: r.callback_id,
  at: r.at_ms,
  requestedAs: r.requested_as,
  consent: markOf(r.consent),
  source: r.source,
  medium: r.medium,
  campaign: r.campaign,
  department: r.department,
  page: r.page,
  placed: r.placed === 1,
  outcome: r.outcome,
  answerSeconds: r.answer_seconds,
  talkSeconds: r.talk_seconds,
});

export function createSqliteReportStore(options: { db: DatabaseSync; now?: () => number }): ReportStore {
  const { db } = options;
  const now = options.now ?? Date.now;
  const sql = {
    add: db.prepare(
      'INSERT INTO lead_facts (callback_id, at_ms, requested_as, consent, source, medium, campaign, department, page) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?) ON CONFLICT (callback_id) DO NOTHING',
    ),
    prune: db.prepare('DELETE FROM lead_facts WHERE at_ms < ?'),
    pruneOpens: db.prepare('DELETE FROM dialog_opens WHERE day < ?'),
    placed: db.prepare('UPDATE lead_facts SET placed = 1 WHERE callback_id = ?'),
    finish: db.prepare('UPDATE lead_facts SET outcome = ?, answer_seconds = ?, talk_seconds = ? WHERE callback_id = ? AND outcome IS NULL'),
    leads: db.prepare('SELECT * FROM lead_facts WHERE at_ms >= ? AND at_ms < ?'),
    newest: db.prepare('SELECT * FROM lead_facts WHERE at_ms >= ? AND at_ms < ? ORDER BY at_ms DESC LIMIT ?'),
    hasGroup: db.prepare('SELECT 1 FROM dialog_opens WHERE day = ? AND source = ? AND medium = ? AND campaign = ? AND department = ? AND page = ?'),
    hasLead: db.prepare('SELECT 1 FROM lead_facts WHERE source = ? AND medium = ? AND campaign = ? AND department = ? AND page = ? AND at_ms >= ? LIMIT 1'),
    groups: db.prepare('SELECT COUNT(*) AS n FROM dialog_opens WHERE day = ?'),
    open: db.prepare('INSERT INTO dialog_opens (day, source, medium, campaign, department, page, count) VALUES (?, ?, ?, ?, ?, ?, 1) ON CONFLICT DO UPDATE SET count = count + 1'),
    opens: db.prepare('SELECT * FROM dialog_opens WHERE day >= ? AND day <= ?'),
  };
  const days = sqliteReportDays(db);
  let lastPrune = 0;
  const values = sqliteReportValues(db);
  return {
    async addLead(f) {
      sql.add.run(f.callbackId, f.at, f.requestedAs, f.consent ?? '', f.source, f.medium, f.campaign, f.department, f.page);
      const at = now();
      if (at - lastPrune > 3_600_000) {
        lastPrune = at;
        const cutoff = at - REPORT_RETENTION_DAYS * 86_400_000;
        sql.prune.run(cutoff);
        sql.pruneOpens.run(new Date(cutoff).toISOString().slice(0, 10));
      }
    },
    async markPlaced(callbackId) {
      sql.placed.run(callbackId);
    },
    async finish(callbackId, outcome, call) {
      sql.finish.run(outcome, call?.answerSeconds ?? null, call?.talkSeconds ?? null, callbackId);
    },
    async leads(fromMs, toMs) {
      return (sql.leads.all(fromMs, toMs) as unknown as FactRow[]).map(toFact);
    },
    async newestLeads(fromMs, toMs, limit) {
      return (sql.newest.all(fromMs, toMs, limit) as unknown as FactRow[]).map(toFact);
    },
    async countOpen(day, group, newGroup) {
      return transaction(db, () => {
        const values = [group.source, group.medium, group.campaign, group.department, group.page] as const;
        let g = group;
        const own = sql.hasGroup.get(day, ...values) !== undefined || sql.hasLead.get(...values, now() - LEAD_GROUP_DAYS * 86_400_000) !== undefined;
        if (!own) {
          if (newGroup === 'ask') return false;
          if (newGroup === 'other' || (sql.groups.get(day) as { n: number }).n >= MAX_OPEN_GROUPS_PER_DAY) g = OTHER_GROUP;
        }
        sql.open.run(day, g.source, g.medium, g.campaign, g.department, g.page);
        return true;
      });
    },
    async opens(fromDay, toDay) {
      return sql.opens.all(fromDay, toDay) as unknown as OpenCount[];
    },
    findValues: (test, limit) => values.find(test, limit),
    eraseValues: (test) => values.erase(test),
    async dayTop(query, k) {
      return days.dayTop(query, k);
    },
    async dayGroups(query, keys) {
      return days.dayGroups(query, keys);
    },
  };
}
