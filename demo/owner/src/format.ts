// Every time on the page is shown in ONE zone, the project's (named in the page's header), never
// the browser's: an owner abroad and the office read the same hour for the same lead.
export interface Formats {
  timeZone: string;
  /** `25 Nov, 14:03` */
  time(iso: string): string;
  /** `Tue 25 Nov` for a YYYY-MM-DD day of the project. */
  day(date: string): string;
  seconds(s: number | null): string;
}

export function formatsFor(timeZone: string): Formats {
  const time = new Intl.DateTimeFormat('en-GB', { timeZone, day: 'numeric', month: 'short', hour: '2-digit', minute: '2-digit', hourCycle: 'h23' });
  // A YYYY-MM-DD day is a calendar date, not an instant: read and written in UTC so no zone moves it.
  const day = new Intl.DateTimeFormat('en-GB', { timeZone: 'UTC', weekday: 'short', day: 'numeric', month: 'short' });
  return {
    timeZone,
    time: (iso) => time.format(new Date(iso)),
    day: (date) => day.format(new Date(`${date}T12:00:00Z`)),
    seconds: (s) => (s === null ? '—' : s >= 60 ? `${Math.floor(s / 60)} min ${Math.round(s % 60)} s` : `${Math.round(s)} s`),
  };
}

const plural = new Intl.PluralRules('en');
/** A count with its noun in agreement (`1 lead`, `4 leads`): the page is in English. */
export const counted = (n: number, one: string, other: string): string => `${n} ${plural.select(n) === 'one' ? one : other}`;

/** The page path of a lead's page URL, or a dash. */
export function pagePath(url: string | null): string {
  if (!url) return '—';
  try {
    return new URL(url).pathname;
  } catch {
    return url;
  }
}
