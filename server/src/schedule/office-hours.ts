// Is the office open at an instant, and when does it next open? Wall-clock rules are evaluated in
// TIMEZONE (zoned.ts), so daylight-saving changes are handled by the platform's tz database.
import { openWindows, type OpenWindow } from './open-windows.ts';
import type { WeeklySchedule } from './working-hours.ts';
import { fromWallClock, wallClock } from './zoned.ts';

export interface OfficeState {
  openNow: boolean;
  /** Next opening instant when closed; null when open now or there is no schedule. */
  nextOpenAt: Date | null;
}

export function officeState(schedule: WeeklySchedule | null, timeZone: string, at: Date): OfficeState {
  if (!schedule) return { openNow: true, nextOpenAt: null };
  const now = wallClock(at, timeZone);
  const minute = now.hour * 60 + now.minute;
  const weekday = new Date(Date.UTC(now.year, now.month - 1, now.day)).getUTCDay();
  // Open now: a window of today, or an overnight window of yesterday still running.
  const yesterday = (weekday + 6) % 7;
  const open = schedule[weekday]!.some((w) => minute >= w.start && minute < w.end) || schedule[yesterday]!.some((w) => w.end > 1440 && minute < w.end - 1440);
  if (open) return { openNow: true, nextOpenAt: null };

  for (let offset = 0; offset <= 7; offset++) {
    // Date.UTC rolls day 32 over into the next month.
    const date = new Date(Date.UTC(now.year, now.month - 1, now.day + offset));
    for (const w of schedule[(weekday + offset) % 7]!) {
      if (offset === 0 && w.start <= minute) continue;
      const nextOpenAt = fromWallClock(
        { year: date.getUTCFullYear(), month: date.getUTCMonth() + 1, day: date.getUTCDate(), hour: Math.floor(w.start / 60), minute: w.start % 60, second: 0 },
        timeZone,
      );
      return { openNow: false, nextOpenAt };
    }
  }
  return { openNow: false, nextOpenAt: null }; // a schedule with no windows at all
}

export interface OfficeHours {
  /** officeState for this schedule and zone, worked out at most once per minute. */
  stateAt(at: Date): OfficeState;
  /** The open windows from `at` to `maxDays` ahead (open-windows.ts), worked out at most once per minute. */
  windowsAt(at: Date): readonly OpenWindow[];
}

const MINUTE_MS = 60_000;

/**
 * officeState with the answer of the current minute kept: with WORKING_HOURS set, reading the
 * wall clock through Intl costs ~14 µs, and every status and callback request asks. The answer
 * cannot change within a UTC minute, because schedules are in whole minutes and every time zone's
 * offset since 1972 is a whole number of minutes, so a daylight-saving change also falls on a
 * minute boundary. One entry: time moves forward, and a minute that comes back is recomputed.
 */
export function createOfficeHours(schedule: WeeklySchedule | null, timeZone: string, maxDays = 7): OfficeHours {
  let minute = Number.NaN;
  let state: OfficeState = { openNow: true, nextOpenAt: null };
  let windowsMinute = Number.NaN;
  let windows: readonly OpenWindow[] = [];
  return {
    windowsAt(at) {
      const m = Math.floor(at.getTime() / MINUTE_MS);
      if (m !== windowsMinute) {
        // From the start of this minute, so every request of the minute shares one answer.
        const from = new Date(m * MINUTE_MS);
        windows = Object.freeze(openWindows(schedule, timeZone, from, new Date(from.getTime() + maxDays * 86_400_000)));
        windowsMinute = m;
      }
      return windows;
    },
    stateAt(at) {
      if (!schedule) return state;
      const m = Math.floor(at.getTime() / MINUTE_MS);
      if (m !== minute) {
        state = officeState(schedule, timeZone, at);
        minute = m;
      }
      return state;
    },
  };
}
