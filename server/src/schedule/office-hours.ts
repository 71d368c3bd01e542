// Is the office open at an instant, and when does it next open? Wall-clock rules are evaluated in
// TIMEZONE through Intl, so daylight-saving changes are handled by the platform's tz database.
import type { WeeklySchedule } from './working-hours.js';

export interface OfficeState {
  openNow: boolean;
  /** Next opening instant when closed; null when open now or there is no schedule. */
  nextOpenAt: Date | null;
}

interface LocalTime {
  year: number;
  month: number;
  day: number;
  weekday: number;
  minute: number;
}

const formatters = new Map<string, Intl.DateTimeFormat>();
function localTime(at: Date, timeZone: string): LocalTime {
  let f = formatters.get(timeZone);
  if (!f) {
    f = new Intl.DateTimeFormat('en-US', {
      timeZone,
      hourCycle: 'h23',
      year: 'numeric',
      month: 'numeric',
      day: 'numeric',
      hour: 'numeric',
      minute: 'numeric',
      weekday: 'short',
    });
    formatters.set(timeZone, f);
  }
  const parts = Object.fromEntries(f.formatToParts(at).map((p) => [p.type, p.value]));
  return {
    year: Number(parts.year),
    month: Number(parts.month),
    day: Number(parts.day),
    weekday: ['Sun', 'Mon', 'Tue', 'Wed', 'Thu', 'Fri', 'Sat'].indexOf(parts.weekday!),
    minute: Number(parts.hour) * 60 + Number(parts.minute),
  };
}

/** The UTC instant at which the wall clock in `timeZone` shows the given local date and minute. */
function instantOf(year: number, month: number, day: number, minute: number, timeZone: string): Date {
  const asUtc = Date.UTC(year, month - 1, day, 0, minute);
  let guess = asUtc;
  for (let i = 0; i < 2; i++) {
    const l = localTime(new Date(guess), timeZone);
    const shownAsUtc = Date.UTC(l.year, l.month - 1, l.day, 0, l.minute);
    guess += asUtc - shownAsUtc;
  }
  return new Date(guess);
}

export function officeState(schedule: WeeklySchedule | null, timeZone: string, at: Date): OfficeState {
  if (!schedule) return { openNow: true, nextOpenAt: null };
  const now = localTime(at, timeZone);
  // Open now: a window of today, or an overnight window of yesterday still running.
  const yesterday = (now.weekday + 6) % 7;
  const open =
    schedule[now.weekday]!.some((w) => now.minute >= w.start && now.minute < w.end) ||
    schedule[yesterday]!.some((w) => w.end > 1440 && now.minute < w.end - 1440);
  if (open) return { openNow: true, nextOpenAt: null };

  for (let offset = 0; offset <= 7; offset++) {
    const noonUtc = Date.UTC(now.year, now.month - 1, now.day + offset, 12);
    const date = new Date(noonUtc);
    const weekday = (now.weekday + offset) % 7;
    for (const w of schedule[weekday]!) {
      if (offset === 0 && w.start <= now.minute) continue;
      return {
        openNow: false,
        nextOpenAt: instantOf(date.getUTCFullYear(), date.getUTCMonth() + 1, date.getUTCDate(), w.start, timeZone),
      };
    }
  }
  return { openNow: false, nextOpenAt: null }; // a schedule with no windows at all
}
