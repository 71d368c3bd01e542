// The lead report: for each group of a period's leads (by utm source, medium, campaign, department or
// page) the funnel from dialog opens to conversations (and the leads without the visitor's analytics
// consent), and the same per day; the counts' definitions are in docs/operations.md ("The lead
// report"). Bounded whatever visitors sent: a day at a time, its first REPORT_GROUPS groups, the rest
// one exact "(other)". How: report/README.md.
import { endOfDay, type Period } from './report-query.ts';
import type { DayQuery, ReportDimension, ReportStore } from './report-store.ts';
import { createCandidates } from './candidates.ts';
import { oneLine } from '../visitor-text/one-line.ts';
import { addInto, byLeadsThenOpens, COUNT_NAMES, type Counts, countsOf, emptySum, medianOf, type Sum } from './tally.ts';

export type { Counts };
export const NONE = '(none)';
export const OTHER = '(other)';
/** Groups a report lists at most, in JSON and CSV alike; the rest are summed as "(other)". */
export const REPORT_GROUPS = 100;

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
  /** The first REPORT_GROUPS groups by leads asked for, then opens; then "(other)" when anything is left. */
  groups: ReportGroup[];
  /** Groups were left out of the list: the last group, "(other)", sums them. */
  truncated: boolean;
  totals: Counts & { medianAnswerSeconds: number | null };
  days: Array<Counts & { date: string }>;
}

/** The group a stored key is shown as: '' (no value) is "(none)"; the store's own "(other)" (a day's groups past its cap) joins ours. */
const shownKey = (raw: string) => (raw === '' ? NONE : raw);
/** The stored keys a shown group stands for. */
const rawKeys = (key: string) => (key === NONE ? ['', NONE] : [key]);

const breather = () => new Promise<void>((resolve) => setImmediate(resolve));

/** A group as the answer shows it: a store may hold values kept before they were cleaned, so each key is one clean line. */
const shown = (key: string, sum: Sum): ReportGroup => ({ key: oneLine(key, 200) || NONE, ...countsOf(sum), medianAnswerSeconds: medianOf(sum.answers) });

/** The report of a period from the store. */
export async function leadReport(store: ReportStore, period: Period, by: ReportDimension, settings: { timeZone: string; talkSeconds: number }): Promise<LeadReport> {
  // Each day's bounds as its turn comes (a time zone's midnight costs a few microseconds, a year of them a turn's worth).
  const queries: DayQuery[] = [];
  const dayOf = (i: number): DayQuery => {
    const fromMs = i === 0 ? period.fromMs : queries[i - 1]!.toMs;
    const toMs = i === period.days.length - 1 ? period.toMs : endOfDay(period.days[i]!, settings.timeZone);
    return (queries[i] = { day: period.days[i]!, fromMs, toMs, by, talkSeconds: settings.talkSeconds });
  };
  const candidates = createCandidates(REPORT_GROUPS);
  const total = emptySum();
  const days: LeadReport['days'] = [];
  // For each day whose list was cut, the stored keys it listed.
  const listed = new Map<number, Set<string>>();
  for (let i = 0; i < period.days.length; i++) {
    const query = dayOf(i);
    const day = await store.dayTop(query, REPORT_GROUPS);
    for (const t of day.top) if (t.key !== OTHER) candidates.add(shownKey(t.key), t, i);
    addInto(total, day.total);
    days.push({ date: query.day, ...countsOf(day.total) });
    if (day.more) listed.set(i, new Set(day.top.map((t) => t.key)));
    await breather();
  }

  // Each shown group read again on the days its sum lacks: a cut day that did not list it, and
  // every day before its `since`.
  const chosen = candidates.choose();
  for (const [i, query] of queries.entries()) {
    const held = listed.get(i);
    const wanted = chosen.flatMap((key) => (i < candidates.since(key) ? rawKeys(key) : held ? rawKeys(key).filter((raw) => !held.has(raw)) : []));
    if (wanted.length === 0) continue;
    for (const t of await store.dayGroups(query, wanted)) addInto(candidates.sum(shownKey(t.key)), t);
    await breather();
  }

  const groups = chosen.map((key) => shown(key, candidates.sum(key))).sort(byLeadsThenOpens);
  const rest = emptySum();
  addInto(rest, total);
  for (const key of chosen) addInto(rest, candidates.sum(key), -1);
  const truncated = COUNT_NAMES.some((c) => rest[c] !== 0) || rest.answers.size > 0;
  if (truncated) groups.push(shown(OTHER, rest));
  return {
    from: period.from,
    to: period.to,
    by,
    timeZone: settings.timeZone,
    talkSeconds: settings.talkSeconds,
    groups,
    truncated,
    totals: { ...countsOf(total), medianAnswerSeconds: medianOf(total.answers) },
    days,
  };
}
