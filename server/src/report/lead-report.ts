// The lead report: for each group of a period's leads (by utm source, medium, campaign,
// department or page), the funnel from dialog opens to conversations, and the same per day. The
// counts' definitions are in docs/operations.md ("The lead report"):
//   opened     dialog opens (the widget's beacon, counted per day and group)
//   requested  leads the visitors asked for: a call now, a booking, a call held through an outage
//   placed     leads whose call the service took (at least once)
//   answered   leads that ended answered;  talked: answered with ≥ REPORT_TALK_SECONDS of talk
//   missed     leads nobody answered after their re-dials;  failed: could not be placed
//   noConsent  requested leads whose tracking cookies the widget did not read, for want of the
//              visitor's analytics consent (declined, or not answered yet): no client id, and utm
//              values only from the page address
// The owner's own call-backs count from `placed` on, never as `requested` (no visitor asked).
import { localDay } from '../schedule/zoned.ts';
import { withoutConsent } from '../tracking-consent/snapshot.ts';
import { oneLine } from '../visitor-text/one-line.ts';
import type { Period, ReportDimension } from './report-query.ts';
import type { LeadFact, OpenCount, ReportStore } from './report-store.ts';

export const NONE = '(none)';

export interface Counts {
  opened: number;
  requested: number;
  placed: number;
  answered: number;
  talked: number;
  missed: number;
  failed: number;
  noConsent: number;
}

export interface ReportGroup extends Counts {
  key: string;
  medianAnswerSeconds: number | null;
}

export interface LeadReport {
  from: string;
  to: string;
  by: ReportDimension;
  timeZone: string;
  talkSeconds: number;
  groups: ReportGroup[];
  totals: Counts & { medianAnswerSeconds: number | null };
  days: Array<Counts & { date: string }>;
}

const zero = (): Counts => ({ opened: 0, requested: 0, placed: 0, answered: 0, talked: 0, missed: 0, failed: 0, noConsent: 0 });

export function median(values: readonly number[]): number | null {
  if (values.length === 0) return null;
  const sorted = [...values].sort((a, b) => a - b);
  const mid = sorted.length >> 1;
  const m = sorted.length % 2 ? sorted[mid]! : (sorted[mid - 1]! + sorted[mid]!) / 2;
  return Math.round(m * 10) / 10;
}

function addLead(c: Counts, f: LeadFact, talkSeconds: number): void {
  if (f.requestedAs !== 'owner') c.requested++;
  if (f.requestedAs !== 'owner' && withoutConsent(f.consent)) c.noConsent++;
  if (f.placed) c.placed++;
  if (f.outcome === 'answered') {
    c.answered++;
    if ((f.talkSeconds ?? 0) >= talkSeconds) c.talked++;
  }
  if (f.outcome === 'missed') c.missed++;
  if (f.outcome === 'failed') c.failed++;
}

export function buildReport(input: {
  period: Period;
  by: ReportDimension;
  timeZone: string;
  talkSeconds: number;
  leads: readonly LeadFact[];
  opens: readonly OpenCount[];
}): LeadReport {
  const { period, by, timeZone, talkSeconds } = input;
  const groups = new Map<string, Counts & { answers: number[] }>();
  const group = (key: string) => {
    // A store may hold values kept before they were cleaned: shown, each is one clean line.
    const k = oneLine(key, 200) || NONE;
    let g = groups.get(k);
    if (!g) groups.set(k, (g = { ...zero(), answers: [] }));
    return g;
  };
  const days = new Map(period.days.map((d) => [d, zero()]));
  const totals = zero();
  const answers: number[] = [];
  for (const o of input.opens) {
    if (!days.has(o.day)) continue;
    group(o[by]).opened += o.count;
    days.get(o.day)!.opened += o.count;
    totals.opened += o.count;
  }
  for (const f of input.leads) {
    const day = days.get(localDay(new Date(f.at), timeZone));
    if (!day) continue;
    const g = group(f[by]);
    for (const c of [g, day, totals]) addLead(c, f, talkSeconds);
    if (f.outcome === 'answered' && f.answerSeconds !== null) {
      g.answers.push(f.answerSeconds);
      answers.push(f.answerSeconds);
    }
  }
  const rows = [...groups.entries()]
    .map(([key, { answers: a, ...counts }]): ReportGroup => ({ key, ...counts, medianAnswerSeconds: median(a) }))
    .sort((a, b) => b.requested - a.requested || b.opened - a.opened || a.key.localeCompare(b.key));
  return {
    from: period.from,
    to: period.to,
    by,
    timeZone,
    talkSeconds,
    groups: rows,
    totals: { ...totals, medianAnswerSeconds: median(answers) },
    days: [...days.entries()].map(([date, c]) => ({ date, ...c })),
  };
}

/** The report of a period from the store. */
export async function leadReport(store: ReportStore, period: Period, by: ReportDimension, settings: { timeZone: string; talkSeconds: number }): Promise<LeadReport> {
  const [leads, opens] = await Promise.all([store.leads(period.fromMs, period.toMs), store.opens(period.from, period.to)]);
  return buildReport({ period, by, leads, opens, ...settings });
}
