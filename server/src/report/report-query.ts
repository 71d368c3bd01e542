// The report's period and grouping, from the query string: from and to are project-local days
// (YYYY-MM-DD, both included, at most MAX_DAYS), `by` one of the dimensions. Anything else is a
// 400 that names the field.
import { RelayError } from '../contract/errors.ts';
import { fromWallClock } from '../schedule/zoned.ts';
import { REPORT_DIMENSIONS, type ReportDimension } from './report-store.ts';

export type { ReportDimension };

export const MAX_REPORT_DAYS = 366;

export interface Period {
  from: string;
  to: string;
  /** [fromMs, toMs): the first instant of `from` to the first instant after `to`, in the time zone. */
  fromMs: number;
  toMs: number;
  /** Every day of the period, oldest first. */
  days: string[];
}

const DAY = /^(\d{4})-(\d{2})-(\d{2})$/;

/** A valid calendar date as its UTC midnight, or null. */
function calendarDate(text: string): Date | null {
  const m = DAY.exec(text);
  if (!m) return null;
  const d = new Date(Date.UTC(Number(m[1]), Number(m[2]) - 1, Number(m[3])));
  return d.toISOString().slice(0, 10) === text ? d : null;
}

const startOf = (day: Date, timeZone: string) =>
  fromWallClock({ year: day.getUTCFullYear(), month: day.getUTCMonth() + 1, day: day.getUTCDate(), hour: 0, minute: 0, second: 0 }, timeZone).getTime();

/** The period of `from`..`to` (both required). */
export function readPeriod(params: URLSearchParams, timeZone: string): Period {
  const dates = (['from', 'to'] as const).map((field) => {
    const value = params.get(field);
    if (value === null || value === '') throw new RelayError('invalid_request', `The query parameter "${field}" is required: a day as YYYY-MM-DD.`, { field });
    const date = calendarDate(value);
    if (!date) throw new RelayError('invalid_request', `The query parameter "${field}" must be a calendar day as YYYY-MM-DD.`, { field });
    return date;
  });
  const [from, to] = dates as [Date, Date];
  if (from > to) throw new RelayError('invalid_request', 'The period ends before it starts: "from" must not be after "to".', { field: 'from' });
  const count = Math.round((to.getTime() - from.getTime()) / 86_400_000) + 1;
  if (count > MAX_REPORT_DAYS) throw new RelayError('invalid_request', `The period is ${count} days long; at most ${MAX_REPORT_DAYS} are reported at once.`, { field: 'to' });
  const days = Array.from({ length: count }, (_, i) => new Date(from.getTime() + i * 86_400_000).toISOString().slice(0, 10));
  return { from: days[0]!, to: days.at(-1)!, fromMs: startOf(from, timeZone), toMs: startOf(new Date(to.getTime() + 86_400_000), timeZone), days };
}

/** The first instant of the day after `day` (YYYY-MM-DD) in the time zone: where that day's leads end. */
export function endOfDay(day: string, timeZone: string): number {
  return startOf(new Date(Date.parse(`${day}T00:00:00Z`) + 86_400_000), timeZone);
}

/** The optional period of the leads list: none when neither bound is given. */
export function readOptionalPeriod(params: URLSearchParams, timeZone: string): Period | null {
  return params.has('from') || params.has('to') ? readPeriod(params, timeZone) : null;
}

export function readDimension(params: URLSearchParams): ReportDimension {
  const by = params.get('by') ?? 'source';
  if ((REPORT_DIMENSIONS as readonly string[]).includes(by)) return by as ReportDimension;
  throw new RelayError('invalid_request', `The query parameter "by" must be one of ${REPORT_DIMENSIONS.join(', ')}.`, { field: 'by' });
}
