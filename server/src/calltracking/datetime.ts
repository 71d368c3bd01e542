// Date and time as the service speaks it. `/calls/list` takes `from`/`to` as `YYYY-MM-DD HH:MM:SS`
// wall-clock time in the project's time zone (facts: doc), and answers `calldate` as ISO 8601 with an
// offset written without a colon (`2019-06-02T09:30:47+0300`, facts: doc), which `new Date()` does not
// accept everywhere. Zones with daylight saving time have two offsets a year, so offsets are computed
// per instant with Intl, never fixed.

import { fromWallClock, pad, wallClock } from '../schedule/zoned.ts';

/** `2019-06-02 09:30:47`: the `from`/`to` format of `/calls/list`, in the project's zone. */
export function formatServiceTime(date: Date, timeZone: string): string {
  const w = wallClock(date, timeZone);
  return `${pad(w.year, 4)}-${pad(w.month)}-${pad(w.day)} ${pad(w.hour)}:${pad(w.minute)}:${pad(w.second)}`;
}

const CALLDATE = /^(\d{4})-(\d{2})-(\d{2})[T ](\d{2}):(\d{2}):(\d{2})(?:\.(\d{1,9}))?(?:(Z)|([+-])(\d{2}):?(\d{2}))?$/;

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
  if (
    check.getUTCFullYear() !== year ||
    check.getUTCMonth() !== month - 1 ||
    check.getUTCDate() !== day ||
    check.getUTCHours() !== hour ||
    check.getUTCMinutes() !== minute ||
    second > 59
  ) {
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
