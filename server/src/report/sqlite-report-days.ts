// The report's reads of one day in the SQLite file (ReportStore's dayTop and dayGroups), grouped
// and cut in SQL: whatever a day holds (up to MAX_OPEN_GROUPS_PER_DAY open groups, every lead),
// what reaches JavaScript is at most k + 1 rows of each kind. A day's opens are read from their
// sums per dimension and value (dialog_open_sums, kept by triggers on dialog_opens), in order of
// opens along an index, so a flooded day's first groups are a range of k + 1 rows; its leads are
// one range of lead_facts_by_time. A day's work is well under a millisecond; the caller yields
// between days all the same.
import type { DatabaseSync, StatementSync } from 'node:sqlite';
import { REPORT_DIMENSIONS, type DayQuery, type DayTop, type ReportDimension } from './report-store.ts';
import { byLeadsThenOpens, COUNT_NAMES, type Answers, type Counts, firstOf, type KeyTally, noCounts } from './tally.ts';

type LeadCounts = Omit<Counts, 'opened'>;
const LEAD_SUMS = [
  "COALESCE(SUM(requested_as <> 'owner'), 0) AS requested",
  'COALESCE(SUM(placed), 0) AS placed',
  "COALESCE(SUM(outcome = 'answered'), 0) AS answered",
  "COALESCE(SUM(outcome = 'answered' AND COALESCE(talk_seconds, 0) >= $talk), 0) AS talked",
  "COALESCE(SUM(outcome = 'missed'), 0) AS missed",
  "COALESCE(SUM(outcome = 'failed'), 0) AS failed",
  // The marks of WITHOUT_CONSENT (tracking-consent/snapshot.ts).
  "COALESCE(SUM(requested_as <> 'owner' AND consent IN ('denied', 'unknown')), 0) AS noConsent",
].join(', ');
const OF_DAY = 'at_ms >= $from AND at_ms < $to';
const ANSWERED = "outcome = 'answered' AND answer_seconds IS NOT NULL";
const IN_KEYS = 'IN (SELECT value FROM json_each($keys))';

/** The statements of one dimension; its column name comes from REPORT_DIMENSIONS, never from a request. */
function dimensionStatements(db: DatabaseSync, d: ReportDimension) {
  return {
    openTop: db.prepare(`SELECT value AS key, opened FROM dialog_open_sums WHERE day = $day AND dimension = '${d}' ORDER BY opened DESC, value LIMIT $limit`),
    openOf: db.prepare(`SELECT value AS key, opened FROM dialog_open_sums WHERE day = $day AND dimension = '${d}' AND value ${IN_KEYS}`),
    leadTop: db.prepare(`SELECT ${d} AS key, ${LEAD_SUMS} FROM lead_facts WHERE ${OF_DAY} GROUP BY ${d} ORDER BY requested DESC, key LIMIT $limit`),
    leadOf: db.prepare(`SELECT ${d} AS key, ${LEAD_SUMS} FROM lead_facts WHERE ${OF_DAY} AND ${d} ${IN_KEYS} GROUP BY ${d}`),
    answersOf: db.prepare(
      `SELECT ${d} AS key, answer_seconds AS seconds, COUNT(*) AS n FROM lead_facts WHERE ${OF_DAY} AND ${ANSWERED} AND ${d} ${IN_KEYS} GROUP BY ${d}, answer_seconds`,
    ),
  };
}

type Row<T> = T & { key: string };
const rows = <T>(statement: StatementSync, params: Record<string, string | number>) => statement.all(params) as unknown as Row<T>[];

export function sqliteReportDays(db: DatabaseSync) {
  const by = Object.fromEntries(REPORT_DIMENSIONS.map((d) => [d, dimensionStatements(db, d)])) as Record<ReportDimension, ReturnType<typeof dimensionStatements>>;
  const openTotal = db.prepare("SELECT COALESCE(SUM(opened), 0) AS opened FROM dialog_open_sums WHERE day = $day AND dimension = 'total'");
  const leadTotal = db.prepare(`SELECT ${LEAD_SUMS} FROM lead_facts WHERE ${OF_DAY}`);
  const answersTotal = db.prepare(`SELECT answer_seconds AS seconds, COUNT(*) AS n FROM lead_facts WHERE ${OF_DAY} AND ${ANSWERED} GROUP BY answer_seconds`);

  const leadParams = (q: DayQuery) => ({ from: q.fromMs, to: q.toMs, talk: q.talkSeconds });

  /** The groups of `keys` that day, exactly: opens, leads and answers. */
  function groupsOf(q: DayQuery, keys: readonly string[], known: Map<string, Counts> = new Map()): KeyTally[] {
    const s = by[q.by];
    const list = JSON.stringify(keys);
    const groups = new Map<string, KeyTally>();
    const group = (key: string) => {
      let g = groups.get(key);
      if (!g) groups.set(key, (g = { key, ...(known.get(key) ?? noCounts()), answers: [] }));
      return g;
    };
    for (const key of keys) if (known.has(key)) group(key);
    if (keys.some((k) => !known.has(k))) {
      for (const r of rows<{ opened: number }>(s.openOf, { day: q.day, keys: list })) if (!known.has(r.key)) group(r.key).opened = r.opened;
      for (const r of rows<LeadCounts>(s.leadOf, { ...leadParams(q), keys: list })) if (!known.has(r.key)) Object.assign(group(r.key), countsOnly(r));
    }
    const answered = [...groups.values()].filter((g) => g.answered > 0);
    if (answered.length > 0) {
      for (const r of rows<{ seconds: number; n: number }>(s.answersOf, { from: q.fromMs, to: q.toMs, keys: JSON.stringify(answered.map((g) => g.key)) })) {
        group(r.key).answers.push([r.seconds, r.n]);
      }
    }
    return [...groups.values()];
  }

  return {
    dayTop(q: DayQuery, k: number): DayTop {
      const s = by[q.by];
      const opens = rows<{ opened: number }>(s.openTop, { day: q.day, limit: k + 1 });
      const leads = rows<LeadCounts>(s.leadTop, { ...leadParams(q), limit: k + 1 });
      const opensMore = opens.length > k;
      const leadsMore = leads.length > k;
      // Both lists whole (k + 1 each: the first group left out decides ties), and for a group in one
      // list only, what the other kind holds of it.
      const known = new Map<string, Counts>();
      for (const o of opens) known.set(o.key, { ...noCounts(), opened: o.opened });
      for (const l of leads) known.set(l.key, { ...(known.get(l.key) ?? noCounts()), ...countsOnly(l) });
      const opened = new Set(opens.map((o) => o.key));
      const asked = new Set(leads.map((l) => l.key));
      const onlyLeads = leads.filter((l) => !opened.has(l.key));
      if (opensMore && onlyLeads.length > 0) {
        for (const r of rows<{ opened: number }>(s.openOf, { day: q.day, keys: JSON.stringify(onlyLeads.map((l) => l.key)) })) known.get(r.key)!.opened = r.opened;
      }
      const onlyOpens = opens.filter((o) => !asked.has(o.key));
      if (leadsMore && onlyOpens.length > 0) {
        for (const r of rows<LeadCounts>(s.leadOf, { ...leadParams(q), keys: JSON.stringify(onlyOpens.map((o) => o.key)) })) Object.assign(known.get(r.key)!, countsOnly(r));
      }
      const ranked = [...known].map(([key, c]) => ({ key, ...c })).sort(byLeadsThenOpens);
      const first = firstOf(ranked, k);
      const top = groupsOf(
        q,
        first.map((g) => g.key),
        new Map(first.map((g) => [g.key, g])),
      ).sort(byLeadsThenOpens);

      const total: Counts = {
        opened: opensMore ? (openTotal.get({ day: q.day }) as { opened: number }).opened : opens.reduce((n, o) => n + o.opened, 0),
        ...(leadsMore ? countsOnly(leadTotal.get(leadParams(q)) as unknown as LeadCounts) : sumLeads(leads)),
      };
      const answers: Answers = total.answered === 0 ? [] : (answersTotal.all({ from: q.fromMs, to: q.toMs }) as Array<{ seconds: number; n: number }>).map((r) => [r.seconds, r.n]);
      return { top, total: { ...total, answers }, more: opensMore || leadsMore || ranked.length > first.length };
    },
    dayGroups(q: DayQuery, keys: readonly string[]): KeyTally[] {
      return keys.length === 0 ? [] : groupsOf(q, [...new Set(keys)]);
    },
  };
}

function countsOnly(r: LeadCounts): LeadCounts {
  return { requested: r.requested, placed: r.placed, answered: r.answered, talked: r.talked, missed: r.missed, failed: r.failed, noConsent: r.noConsent };
}

function sumLeads(list: readonly LeadCounts[]): LeadCounts {
  const sum = noCounts();
  for (const l of list) for (const c of COUNT_NAMES) if (c !== 'opened') sum[c] += l[c];
  const { opened: _, ...leads } = sum;
  return leads;
}
