// The office's open windows between two instants, as instants: what the widget's time picker offers
// ("call me later") and what a scheduled call is checked against. Windows are the WORKING_HOURS
// rules read in TIMEZONE day by day (zoned.ts handles daylight saving), clipped to the range, and
// merged where one ends as the next begins (Mon 22:00-24:00 and Tue 00:00-02:00 are one window).
import type { WeeklySchedule } from './working-hours.ts';
import { fromWallClock, wallClock } from './zoned.ts';

export interface OpenWindow {
  opensAt: Date;
  closesAt: Date;
}

const DAY_MS = 86_400_000;

export function openWindows(schedule: WeeklySchedule | null, timeZone: string, from: Date, until: Date): OpenWindow[] {
  if (until <= from) return [];
  // No schedule: always open.
  if (!schedule) return [{ opensAt: from, closesAt: until }];
  const start = wallClock(from, timeZone);
  const windows: OpenWindow[] = [];
  // From the day before (its overnight windows may still run) to the day `until` falls on.
  const days = Math.ceil((until.getTime() - from.getTime()) / DAY_MS) + 1;
  for (let offset = -1; offset <= days; offset++) {
    // Date.UTC rolls day 32 over into the next month.
    const date = new Date(Date.UTC(start.year, start.month - 1, start.day + offset));
    const weekday = date.getUTCDay();
    for (const w of schedule[weekday]!) {
      const opensAt = at(date, w.start, timeZone);
      const closesAt = at(date, w.end, timeZone);
      const clippedOpen = opensAt < from ? from : opensAt;
      const clippedClose = closesAt > until ? until : closesAt;
      if (clippedOpen < clippedClose) windows.push({ opensAt: clippedOpen, closesAt: clippedClose });
    }
  }
  windows.sort((a, b) => a.opensAt.getTime() - b.opensAt.getTime());
  const merged: OpenWindow[] = [];
  for (const w of windows) {
    const last = merged[merged.length - 1];
    if (last && w.opensAt <= last.closesAt) {
      if (w.closesAt > last.closesAt) last.closesAt = w.closesAt;
    } else merged.push({ ...w });
  }
  return merged;
}

/** The instant `minutes` after local midnight of `date`'s local day (minutes may pass 1440: overnight). */
function at(date: Date, minutes: number, timeZone: string): Date {
  const day = new Date(date.getTime() + Math.floor(minutes / 1440) * DAY_MS);
  const m = minutes % 1440;
  return fromWallClock({ year: day.getUTCFullYear(), month: day.getUTCMonth() + 1, day: day.getUTCDate(), hour: Math.floor(m / 60), minute: m % 60, second: 0 }, timeZone);
}

/** Whether `instant` falls inside one of `windows` (closing time excluded). */
export function isWithin(windows: readonly OpenWindow[], instant: Date): boolean {
  return windows.some((w) => instant >= w.opensAt && instant < w.closesAt);
}
