// WORKING_HOURS, e.g. `Mon-Fri 09:00-18:00; Sat 10:00-14:00`: day ranges or lists (`Mon,Wed`),
// each with one or more time ranges (`09:00-13:00,14:00-18:00`). `24:00` ends a day; a range whose
// end is before its start runs past midnight (`Fri 22:00-02:00`). Parsed once at startup.
export const weekdays = ['Sun', 'Mon', 'Tue', 'Wed', 'Thu', 'Fri', 'Sat'] as const;

/** Minutes since local midnight, [start, end) — end may exceed 1440 for overnight ranges. */
export interface Window {
  start: number;
  end: number;
}
/** Index 0 = Sunday, as Date#getDay. */
export type WeeklySchedule = ReadonlyArray<readonly Window[]>;

const dayIndex = (name: string): number => {
  const i = weekdays.findIndex((d) => d.toLowerCase() === name.slice(0, 3).toLowerCase());
  if (i < 0 || name.length < 3) throw new Error(`unknown day "${name}" (use Mon, Tue, Wed, Thu, Fri, Sat, Sun)`);
  return i;
};

const minutes = (hhmm: string): number => {
  const m = /^(\d{1,2}):(\d{2})$/.exec(hhmm);
  const h = Number(m?.[1]);
  const min = Number(m?.[2]);
  if (!m || min > 59 || h > 24 || (h === 24 && min > 0)) throw new Error(`bad time "${hhmm}" (use HH:MM, 00:00 to 24:00)`);
  return h * 60 + min;
};

function parseDays(text: string): number[] {
  const days = new Set<number>();
  for (const part of text.split(',')) {
    const [from, to] = part.split('-').map((s) => s.trim());
    if (!from) throw new Error(`missing day in "${text}"`);
    const a = dayIndex(from);
    if (to === undefined) {
      days.add(a);
      continue;
    }
    const b = dayIndex(to);
    for (let d = a; ; d = (d + 1) % 7) {
      days.add(d);
      if (d === b) break;
    }
  }
  return [...days];
}

export function parseWorkingHours(text: string): WeeklySchedule {
  const week: Window[][] = [[], [], [], [], [], [], []];
  const rules = text
    .split(';')
    .map((r) => r.trim())
    .filter(Boolean);
  if (rules.length === 0) throw new Error('expected rules like "Mon-Fri 09:00-18:00; Sat 10:00-14:00"');
  for (const rule of rules) {
    const m = /^(\S+)\s+(.+)$/.exec(rule);
    if (!m) throw new Error(`rule "${rule}" needs days and hours, like "Mon-Fri 09:00-18:00"`);
    const days = parseDays(m[1]!);
    for (const range of m[2]!.split(',')) {
      const [startText, endText] = range.trim().split('-');
      if (!startText || !endText) throw new Error(`bad hours "${range.trim()}" in "${rule}" (use 09:00-18:00)`);
      const start = minutes(startText);
      let end = minutes(endText);
      if (start === 1440) throw new Error(`a range cannot start at 24:00 in "${rule}"`);
      if (end <= start) end += 1440; // runs past midnight
      for (const d of days) week[d]!.push({ start, end });
    }
  }
  for (const day of week) day.sort((x, y) => x.start - y.start);
  return week;
}
