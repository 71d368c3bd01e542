// What the lead report counts, kept apart from the callback jobs: the jobs hold a visitor's number
// and are deleted DATA_RETENTION_DAYS after they end, while the report needs a year of counts and
// nothing personal. So each lead leaves one fact (when it came, how, its attribution, whether the
// service took its call, how it ended, when talk began and how long it lasted) under its callback
// id, and each dialog open a per-day counter of its group. No number, no address, no cookie.
import type { FinalStage, RequestedAs } from '../callback/stages.ts';
import type { ConsentMark } from '../tracking-consent/snapshot.ts';
import { groupPath, groupText, visibleText } from './group-values.ts';
import type { ValueMatches, ValuesErased, ValueTest } from './erase-values.ts';
import type { KeyTally, Tally } from './tally.ts';

/** How a lead came in: the visitor's request, or the owner's "call back now". */
export type LeadSource = RequestedAs | 'owner';

/** The attribution a lead or an open is grouped by; '' when the visitor's page had none. */
export interface ReportGroupValues {
  source: string;
  medium: string;
  campaign: string;
  department: string;
  /** The page's path (no query: it may carry anything). */
  page: string;
}

export const REPORT_DIMENSIONS = ['source', 'medium', 'campaign', 'department', 'page'] as const satisfies readonly (keyof ReportGroupValues)[];
export type ReportDimension = (typeof REPORT_DIMENSIONS)[number];

/** How a lead ended, as far as the report tells it; null while it is still going on. */
export type LeadEnd = FinalStage;

export interface LeadFact extends ReportGroupValues {
  callbackId: string;
  /** When it was requested, ms. */
  at: number;
  requestedAs: LeadSource;
  /** Whether the widget read the tracking cookies, and if not why (tracking-consent/snapshot.ts); '' when not told. */
  consent: ConsentMark;
  /** The service took its call (at least once). */
  placed: boolean;
  outcome: LeadEnd | null;
  /** Seconds from the request (a booking: its booked time) to the start of talk; answered calls only. */
  answerSeconds: number | null;
  /** The call log's billsec of the answered call. */
  talkSeconds: number | null;
}

export interface NewLeadFact extends ReportGroupValues {
  callbackId: string;
  at: number;
  requestedAs: LeadSource;
  /** Absent: '' (not told). */
  consent?: ConsentMark;
}

export interface OpenCount extends ReportGroupValues {
  /** YYYY-MM-DD in the project's time zone. */
  day: string;
  count: number;
}

/** One day of the report, as a store reads it: its opens' day, and the instants its leads were asked for in. */
export interface DayQuery {
  /** YYYY-MM-DD in the project's time zone. */
  day: string;
  /** [fromMs, toMs): the day's first instant to the next day's. */
  fromMs: number;
  toMs: number;
  by: ReportDimension;
  /** An answered lead with this much talk or more counts as talked. */
  talkSeconds: number;
}

export interface DayTop {
  /** The day's first groups by leads asked for, then opens, then key: at most the `k` asked for. */
  top: KeyTally[];
  /** The whole day, every group in it. */
  total: Tally;
  /** The day has groups beyond `top`. */
  more: boolean;
}

export interface ReportStore {
  /** Records a new lead; a second call for the same id changes nothing. */
  addLead(fact: NewLeadFact): Promise<void>;
  markPlaced(callbackId: string): Promise<void>;
  /** Its end, once: a lead that already ended keeps its first end. */
  finish(callbackId: string, outcome: LeadEnd, call: { answerSeconds: number; talkSeconds: number } | null): Promise<void>;
  /** Leads requested in [fromMs, toMs): every one of them, so tests and tools only, never a request. */
  leads(fromMs: number, toMs: number): Promise<LeadFact[]>;
  /** The newest `limit` leads requested in [fromMs, toMs), newest first. */
  newestLeads(fromMs: number, toMs: number, limit: number): Promise<LeadFact[]>;
  /**
   * One dialog open on `day`, under its group when the day counts that group already or it had a
   * lead in the last LEAD_GROUP_DAYS days. Otherwise `newGroup` decides: 'add' starts the group
   * while the day has fewer than MAX_OPEN_GROUPS_PER_DAY groups (else the open counts as (other)),
   * 'other' counts it as (other), 'ask' counts nothing. True when counted.
   */
  countOpen(day: string, group: ReportGroupValues, newGroup: NewOpenGroup): Promise<boolean>;
  /** Open counts of the days from `fromDay` to `toDay`, both included. */
  opens(fromDay: string, toDay: string): Promise<OpenCount[]>;
  /** Leads and open groups with a visitor value `test` matches, at most `limit` of each (erase-values.ts). */
  findValues(test: ValueTest, limit: number): Promise<ValueMatches>;
  /** Replaces every value `test` matches with ERASED_VALUE; what was counted stays (erase-values.ts). */
  eraseValues(test: ValueTest): Promise<ValuesErased>;
  /**
   * The report's read of one day, grouped in the store: its first `k` groups and its total. The work
   * is one day's rows, and what comes back is `k` groups whatever visitors sent (lead-report.ts).
   */
  dayTop(query: DayQuery, k: number): Promise<DayTop>;
  /** These groups of one day, each summed exactly; a group with nothing that day is left out. */
  dayGroups(query: DayQuery, keys: readonly string[]): Promise<KeyTally[]>;
}

/** Facts and counts hold nothing personal; they are kept this long for year-on-year reports. */
export const REPORT_RETENTION_DAYS = 400;
/** Groups counted per day beyond which new ones (but those with a lead, below) are counted as one "(other)": hostile variety cannot grow the store. */
export const MAX_OPEN_GROUPS_PER_DAY = 5_000;
/** A group with a lead this recent always has room for its opens: a flood of junk groups cannot push it into "(other)". */
export const LEAD_GROUP_DAYS = 30;
/** What countOpen does with an open whose group the day has no count of yet (see there). */
export type NewOpenGroup = 'add' | 'other' | 'ask';
export const OTHER_GROUP: ReportGroupValues = { source: '(other)', medium: '(other)', campaign: '(other)', department: '(other)', page: '(other)' };

/** A lead's or an open's values as the store keeps them: in one form, bounded (group-values.ts). */
export function groupValues(values: Partial<Record<keyof ReportGroupValues, string | null | undefined>>): ReportGroupValues {
  const { source, medium, campaign, department, page } = values;
  return { source: groupText(source), medium: groupText(medium), campaign: groupText(campaign), department: visibleText(department ?? '', 60), page: groupPath(page) };
}

/** The path of an http(s) page URL (never its query or fragment), '' when there is none or it is not one. */
export function pagePath(url: string | null | undefined): string {
  if (!url) return '';
  try {
    const parsed = new URL(url, 'http://x');
    return parsed.protocol === 'http:' || parsed.protocol === 'https:' ? parsed.pathname : '';
  } catch {
    return '';
  }
}
