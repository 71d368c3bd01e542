// Date and time as the service speaks it. `/calls/list` takes `from`/`to` as `YYYY-MM-DD HH:MM:SS`
// wall-clock time in the project's time zone (facts: doc), and answers `calldate` as ISO 8601 with an
// offset written without a colon (`2019-06-02T09:30:47+0300`, facts: doc), which `new Date()` does not
// accept everywhere. Zones with daylight saving time have two offsets a year, so offsets are computed
// per instant with Intl, never fixed.

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

const pad = (n: number, width = 2) => String(n).padStart(width, '0');

/** `2019-06-02 09:30:47`: the `from`/`to` format of `/calls/list`, in the project's zone. */
export function formatServiceTime(date: Date, timeZone: string): string {
  const w = wallClock(date, timeZone);
  return `${pad(w.year, 4)}-${pad(w.month)}-${pad(w.day)} ${pad(w.hour)}:${pad(w.minute)}:${pad(w.second)}`;
}

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

const CALLDATE =
  /^(\d{4})-(\d{2})-(\d{2})[T ](\d{2}):(\d{2}):(\d{2})(?:\.(\d{1,9}))?(?:(Z)|([+-])(\d{2}):?(\d{2}))?$/;

/**
 * Parses a `calldate`: `2019-06-02T09:30:47+0300` (the documented form), and leniently `+03:00`,
 * `Z`, a space instead of `T`, fractions of a second. A value without any offset is read in
 * `timeZone` (the project's). Returns null for anything else, including impossible dates.
 */
export function parseCalldate(text: string, timeZone: string): Date | null {
  const m = CALLDATE.exec(text.trim());
  if (!m) return null;
  const [year, month, day, hour, minute, second] = m.slice(1, 7).map(Number) as [number, number, number, number, number, number];
  const ms = m[7] ? Number(m[7].slice(0, 3).padEnd(3, '0')) : 0;
  const check = new Date(Date.UTC(year, month - 1, day, hour, minute, second));
  if (check.getUTCFullYear() !== year || check.getUTCMonth() !== month - 1 || check.getUTCDate() !== day || check.getUTCHours() !== hour || check.getUTCMinutes() !== minute || second > 59) {
    return null;
  }
  if (m[8] === 'Z') return new Date(check.getTime() + ms);
  if (m[9]) {
    const offsetH = Number(m[10]);
    const offsetM = Number(m[11]);
    if (offsetH > 14 || offsetM > 59) return null;
    const sign = m[9] === '-' ? -1 : 1;
    return new Date(check.getTime() + ms - sign * (offsetH * 60 + offsetM) * 60_000);
  }
  return new Date(fromWallClock({ year, month, day, hour, minute, second }, timeZone).getTime() + ms);
}
