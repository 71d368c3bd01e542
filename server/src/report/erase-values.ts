// Erasing visitor values from the report (a visitor's data on request, number-data/): a value holding
// the number (number-mentions.ts) is replaced with ERASED_VALUE and everything counted stays, so the
// owner's totals do not change for a reason the owner cannot see. What "erased" means in an aggregate:
// report/README.md.
import type { LeadFact, OpenCount, ReportGroupValues } from './report-store.ts';
import { REPORT_DIMENSIONS } from './report-store.ts';

/** What an erased value reads as, in the report and its CSV. */
export const ERASED_VALUE = '(erased)';

export type ReportDimension = keyof ReportGroupValues;

/** Which visitor values to find or erase. */
export interface ValueTest {
  /**
   * Digits every matching value holds, in this order, with or without other characters between (a
   * number's national digits): the stores read no other values (in SQL, a GLOB), so a year of a
   * flood's values is passed over without each being brought to `matches`.
   */
  digits: string;
  matches(value: string): boolean;
}

/** The GLOB pattern of `digits` in order, anything between: `*5*0*1*`. */
export const digitsPattern = (digits: string) => `*${[...digits].join('*')}*`;

export interface ValueMatches {
  /** Leads with a matching value, and which of their values match. */
  leads: Array<LeadFact & { fields: ReportDimension[] }>;
  /** Open groups (one day, one group) with a matching value. */
  opens: Array<OpenCount & { fields: ReportDimension[] }>;
  /** More of either kind matched than the limit asked for. */
  more: boolean;
}

export interface ValuesErased {
  /** Leads whose values were replaced. */
  leads: number;
  /** Open groups whose values were replaced (merged into an erased group of their day). */
  opens: number;
}

/** Whether `value` holds `digits` in order (what a store's GLOB of digitsPattern keeps). */
function holdsInOrder(value: string, digits: string): boolean {
  let at = 0;
  for (const digit of digits) {
    at = value.indexOf(digit, at) + 1;
    if (at === 0) return false;
  }
  return true;
}

/** The dimensions of `g` whose value `test` matches. */
export function matchingFields(g: ReportGroupValues, test: ValueTest): ReportDimension[] {
  return REPORT_DIMENSIONS.filter((d) => holdsInOrder(g[d], test.digits) && test.matches(g[d]));
}

/** `g` with the values of `fields` replaced with ERASED_VALUE. */
export function erasedGroup(g: ReportGroupValues, fields: readonly ReportDimension[]): ReportGroupValues {
  const values: ReportGroupValues = { source: g.source, medium: g.medium, campaign: g.campaign, department: g.department, page: g.page };
  for (const d of fields) values[d] = ERASED_VALUE;
  return values;
}

/** A batch of a store's walk over its values: what matched, with the dimensions that matched. */
export interface ValueBatch {
  leads: Array<[LeadFact, ReportDimension[]]>;
  opens: Array<[OpenCount, ReportDimension[]]>;
}

/** The matches of a walk, up to `limit` of each kind (the walk goes on to its end: `more` says whether there were more). */
export async function collectMatches(batches: AsyncIterable<ValueBatch> | Iterable<ValueBatch>, limit: number): Promise<ValueMatches> {
  const found: ValueMatches = { leads: [], opens: [], more: false };
  for await (const batch of batches) {
    for (const [fact, fields] of batch.leads) {
      if (found.leads.length < limit) found.leads.push({ ...fact, fields });
      else found.more = true;
    }
    for (const [open, fields] of batch.opens) {
      if (found.opens.length < limit) found.opens.push({ ...open, fields });
      else found.more = true;
    }
  }
  return found;
}

/** `items` that `test` matches, each with its matching dimensions. */
export function matchesOf<T extends ReportGroupValues>(items: Iterable<T>, test: ValueTest): Array<[T, ReportDimension[]]> {
  const matched: Array<[T, ReportDimension[]]> = [];
  for (const item of items) {
    const fields = matchingFields(item, test);
    if (fields.length > 0) matched.push([item, fields]);
  }
  return matched;
}

/** Lets the event loop answer other requests between two batches of a long walk. */
export const yieldToRequests = () => new Promise<void>((resolve) => setImmediate(resolve));
