// The report's period: a preset counted back from the project's today (given by the relay, so it
// is the project's day, not the browser's), or a custom from/to. Days are YYYY-MM-DD strings,
// computed in UTC so no zone or summer-time change moves them.
import type { Period } from '../types.ts';

export type Preset = 'today' | '7' | '30' | 'custom';

const DAY_MS = 86_400_000;
const DAY = /^\d{4}-\d{2}-\d{2}$/;

export function addDays(day: string, n: number): string {
  return new Date(Date.parse(`${day}T00:00:00Z`) + n * DAY_MS).toISOString().slice(0, 10);
}

/** The period a preset names, today included: "7 days" is today and the six before. */
export function presetPeriod(preset: Exclude<Preset, 'custom'>, today: string): Period {
  const days = preset === 'today' ? 1 : Number(preset);
  return { from: addDays(today, 1 - days), to: today };
}

/** Why a custom period cannot be asked for, or null when it can. */
export function customProblem(from: string, to: string): string | null {
  if (!DAY.test(from) || !DAY.test(to)) return 'Choose both days of the period.';
  if (from > to) return 'The first day must not be after the last.';
  return null;
}
