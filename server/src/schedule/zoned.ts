// Wall-clock time in an IANA time zone, through Intl, so daylight-saving changes come from the
// platform's tz database and offsets are computed per instant, never fixed. Used for the service's
// project-local times and for the office's working hours.

const formatters = new Map<string, Intl.DateTimeFormat>();

function formatterFor(timeZone: string): Intl.DateTimeFormat {
  let f = formatters.get(timeZone);
  if (!f) {
    // Throws RangeError for an unknown zone; config validates the zone at startup.
    f = new Intl.DateTimeFormat('en-US', {
      timeZone,
      hourCycle: 'h23',
      year: 'numeric',
      month: '2-digit',
      day: '2-digit',
      hour: '2-digit',
      minute: '2-digit',
      second: '2-digit',
    });
    formatters.set(timeZone, f);
  }
  return f;
}

export interface WallClock {
  year: number;
  month: number;
  day: number;
  hour: number;
  minute: number;
  second: number;
}

/** The wall-clock reading of `date` in `timeZone`. */
export function wallClock(date: Date, timeZone: string): WallClock {
  const out: Record<string, number> = {};
  for (const p of formatterFor(timeZone).formatToParts(date)) if (p.type !== 'literal') out[p.type] = Number(p.value);
  return { year: out.year!, month: out.month!, day: out.day!, hour: out.hour!, minute: out.minute!, second: out.second! };
}

/** Offset of `timeZone` from UTC at `date`, in minutes east of Greenwich. */
export function offsetMinutes(date: Date, timeZone: string): number {
  const w = wallClock(date, timeZone);
  const asUtc = Date.UTC(w.year, w.month - 1, w.day, w.hour, w.minute, w.second);
  return Math.round((asUtc - Math.floor(date.getTime() / 1000) * 1000) / 60_000);
}

export const pad = (n: number, width = 2): string => String(n).padStart(width, '0');

/**
 * The instant a wall-clock reading in `timeZone` names. In the hour that a DST switch skips, the
 * reading is taken with the offset before the switch; in the repeated hour, the first occurrence.
 */
export function fromWallClock(w: WallClock, timeZone: string): Date {
  const asUtc = Date.UTC(w.year, w.month - 1, w.day, w.hour, w.minute, w.second);
  // Two passes settle the offset around DST switches.
  let guess = asUtc - offsetMinutes(new Date(asUtc), timeZone) * 60_000;
  guess = asUtc - offsetMinutes(new Date(guess), timeZone) * 60_000;
  return new Date(guess);
}

/** The first second of the project-local day that contains `date`. */
export function startOfLocalDay(date: Date, timeZone: string): Date {
  const w = wallClock(date, timeZone);
  return fromWallClock({ ...w, hour: 0, minute: 0, second: 0 }, timeZone);
}

/** The first second of the project-local day after the one that contains `date`. */
export function startOfNextLocalDay(date: Date, timeZone: string): Date {
  const w = wallClock(date, timeZone);
  // Date.UTC rolls day 32 over into the next month, which is what we want here.
  const next = new Date(Date.UTC(w.year, w.month - 1, w.day + 1));
  return fromWallClock({ year: next.getUTCFullYear(), month: next.getUTCMonth() + 1, day: next.getUTCDate(), hour: 0, minute: 0, second: 0 }, timeZone);
}

/** `YYYY-MM-DD` of the project-local day containing `date` (for grouping calls per day). */
export function localDay(date: Date, timeZone: string): string {
  const w = wallClock(date, timeZone);
  return `${pad(w.year, 4)}-${pad(w.month)}-${pad(w.day)}`;
}
