// What a beacon flood leaves in the report's store, built straight into the store rather than by
// a year of requests: each day `floodGroups` open groups with a utm source of their own (one open
// each, as 5,000 beacons from 5,000 networks leave them), beside the real traffic of a handful of
// sources (their opens and `leadsPerDay` leads with outcomes and answer times) and, if asked, a
// long tail of `steadyGroups` sources seen every day (steady-<g>: g + 2 opens a day). SQLite is filled
// with SQL in one transaction a day, Redis with one pipeline a day, memory through the store's API
// (small floods only). `expected` is what an exact report of the whole plan must say.
import type { DatabaseSync } from 'node:sqlite';
import { type LeadEnd, type LeadFact, type OpenCount, REPORT_DIMENSIONS, type ReportStore } from '../../server/src/report/report-store.ts';
import { dayKeys } from '../../server/src/report/redis-open-index.ts';
import { transaction } from '../../server/src/storage/sqlite/database.ts';
import { CREATE_OPEN_SUMS_TRIGGERS, DROP_OPEN_SUMS_TRIGGERS, FILL_OPEN_SUMS } from '../../server/src/storage/sqlite/schema/step-9.ts';
import type { RedisConnection } from '../../server/src/storage/redis/connection.ts';
import { fromWallClock } from '../../server/src/schedule/zoned.ts';
import { type Counts, noCounts } from '../../server/src/report/tally.ts';

/** The real sources ('' is a visitor without one) and their opens a day. */
export const REAL_SOURCES: ReadonlyArray<[string, number]> = [
  ['google', 120],
  ['newsletter', 60],
  ['facebook', 40],
  ['bing', 12],
  ['', 30],
];
const OUTCOMES: ReadonlyArray<LeadEnd | null> = ['answered', 'answered', 'answered', 'missed', 'failed', null];

export interface FloodSpec {
  /** The first day, YYYY-MM-DD, and how many days. */
  from: string;
  days: number;
  floodGroups: number;
  leadsPerDay: number;
  steadyGroups?: number;
  timeZone: string;
}

export interface FloodDay {
  day: string;
  opens: OpenCount[];
  leads: LeadFact[];
}

export function* floodDays(spec: FloodSpec): Generator<FloodDay> {
  const first = new Date(`${spec.from}T00:00:00Z`);
  for (let d = 0; d < spec.days; d++) {
    const date = new Date(first.getTime() + d * 86_400_000);
    const day = date.toISOString().slice(0, 10);
    const start = fromWallClock({ year: date.getUTCFullYear(), month: date.getUTCMonth() + 1, day: date.getUTCDate(), hour: 9, minute: 0, second: 0 }, spec.timeZone).getTime();
    const plain = { medium: '', campaign: '', department: '', page: '/' };
    const opens: OpenCount[] = REAL_SOURCES.map(([source, count]) => ({ day, source, medium: 'cpc', campaign: 'spring', department: '', page: '/sofa', count }));
    for (let g = 0; g < (spec.steadyGroups ?? 0); g++) opens.push({ day, source: `steady-${g}`, ...plain, count: g + 2 });
    for (let g = 0; g < spec.floodGroups; g++) opens.push({ day, source: `flood-${day}-${g}`, ...plain, count: 1 });
    const leads = Array.from({ length: spec.leadsPerDay }, (_, i): LeadFact => {
      const outcome = OUTCOMES[(d + i) % OUTCOMES.length]!;
      return {
        callbackId: `flood-lead-${day}-${i}`,
        at: start + i * 60_000,
        requestedAs: i % 7 === 6 ? 'owner' : 'now',
        consent: '',
        source: REAL_SOURCES[i % REAL_SOURCES.length]![0],
        medium: 'cpc',
        campaign: 'spring',
        department: '',
        page: '/sofa',
        placed: outcome !== 'failed' && outcome !== null,
        outcome,
        answerSeconds: outcome === 'answered' ? 5 + ((d * 7 + i) % 40) / 2 : null,
        talkSeconds: outcome === 'answered' ? (i * 13) % 120 : null,
      };
    });
    yield { day, opens, leads };
  }
}

/** What an exact report of the plan says: its totals, and the counts of each source but the flood's, at `talkSeconds`. */
export function expected(spec: FloodSpec, talkSeconds: number): { totals: Counts; bySource: Map<string, Counts> } {
  const totals = noCounts();
  const bySource = new Map<string, Counts>(REAL_SOURCES.map(([s]) => [s, noCounts()]));
  for (let g = 0; g < (spec.steadyGroups ?? 0); g++) bySource.set(`steady-${g}`, noCounts());
  for (const { opens, leads } of floodDays(spec)) {
    for (const o of opens) {
      totals.opened += o.count;
      const known = bySource.get(o.source);
      if (known) known.opened += o.count;
    }
    for (const f of leads) {
      for (const c of [totals, bySource.get(f.source)!]) {
        if (f.requestedAs !== 'owner') c.requested++;
        if (f.placed) c.placed++;
        if (f.outcome === 'answered') c.answered++;
        if (f.outcome === 'answered' && (f.talkSeconds ?? 0) >= talkSeconds) c.talked++;
        if (f.outcome === 'missed') c.missed++;
        if (f.outcome === 'failed') c.failed++;
      }
    }
  }
  return { totals, bySource };
}

/** Straight into the tables, with the opens' sums made once at the end (as a bulk load does: schema/step-9.ts). */
export function floodSqlite(db: DatabaseSync, spec: FloodSpec): void {
  db.exec(DROP_OPEN_SUMS_TRIGGERS);
  const open = db.prepare('INSERT INTO dialog_opens (day, source, medium, campaign, department, page, count) VALUES (?, ?, ?, ?, ?, ?, ?)');
  const lead = db.prepare(
    'INSERT INTO lead_facts (callback_id, at_ms, requested_as, source, medium, campaign, department, page, placed, outcome, answer_seconds, talk_seconds) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)',
  );
  for (const { opens, leads } of floodDays(spec)) {
    transaction(db, () => {
      for (const o of opens) open.run(o.day, o.source, o.medium, o.campaign, o.department, o.page, o.count);
      for (const f of leads)
        lead.run(f.callbackId, f.at, f.requestedAs, f.source, f.medium, f.campaign, f.department, f.page, f.placed ? 1 : 0, f.outcome, f.answerSeconds, f.talkSeconds);
    });
  }
  transaction(db, () => db.exec(`${FILL_OPEN_SUMS}\n${CREATE_OPEN_SUMS_TRIGGERS}`));
}

/**
 * The Redis report store's keys (redis-report-store.ts), a pipeline a day: each day's opens hash
 * and, unless `index` is false (a day counted before the store kept one), its index as counting
 * keeps it (redis-open-index.ts).
 */
export async function floodRedis(connection: RedisConnection, spec: FloodSpec, { index = true } = {}): Promise<void> {
  const space = connection.keyspace('report');
  for (const { day, opens, leads } of floodDays(spec)) {
    const pipe = connection.client.multi();
    const fields: Record<string, string> = {};
    for (const o of opens) fields[JSON.stringify(REPORT_DIMENSIONS.map((d) => o[d]))] = String(o.count);
    const [hash, total, ...byDimension] = dayKeys(space, day);
    pipe.hSet(hash!, fields);
    if (index) {
      pipe.set(total!, String(opens.reduce((n, o) => n + o.count, 0)));
      for (const [i, d] of REPORT_DIMENSIONS.entries()) {
        const sums = new Map<string, number>();
        for (const o of opens) sums.set(o[d], (sums.get(o[d]) ?? 0) + o.count);
        pipe.zAdd(
          byDimension[i]!,
          [...sums].map(([value, score]) => ({ value, score })),
        );
      }
    }
    for (const f of leads) {
      const values: Record<string, string> = {
        at: String(f.at),
        requestedAs: f.requestedAs,
        source: f.source,
        medium: f.medium,
        campaign: f.campaign,
        department: f.department,
        page: f.page,
      };
      if (f.placed) values.placed = '1';
      if (f.outcome) values.outcome = f.outcome;
      if (f.answerSeconds !== null) values.answerSeconds = String(f.answerSeconds);
      if (f.talkSeconds !== null) values.talkSeconds = String(f.talkSeconds);
      pipe.hSet(`${space}lead:${f.callbackId}`, values);
      pipe.zAdd(`${space}leads`, { score: f.at, value: f.callbackId });
    }
    await pipe.execAsPipeline();
  }
}

/** Through the store's own API: a beacon and a lifecycle event at a time (small floods). */
export async function floodThroughApi(store: ReportStore, spec: FloodSpec): Promise<void> {
  for (const { day, opens, leads } of floodDays(spec)) {
    for (const o of opens) for (let n = 0; n < o.count; n++) await store.countOpen(day, o, 'add');
    for (const f of leads) {
      const { callbackId, at, requestedAs, source, medium, campaign, department, page } = f;
      await store.addLead({ callbackId, at, requestedAs, source, medium, campaign, department, page });
      if (f.placed) await store.markPlaced(f.callbackId);
      if (f.outcome) await store.finish(f.callbackId, f.outcome, f.outcome === 'answered' ? { answerSeconds: f.answerSeconds!, talkSeconds: f.talkSeconds! } : null);
    }
  }
}
