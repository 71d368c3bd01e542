// The office hours: WORKING_HOURS in TIMEZONE. Outside them callbacks answer `closed` (or are held
// for the next opening); unset, the office is always open.
import { parseWorkingHours, type WeeklySchedule } from '../schedule/working-hours.ts';
import type { EnvReader } from './env.ts';

export interface OfficeSettings {
  /** null: always open. */
  hours: WeeklySchedule | null;
  /** The zone WORKING_HOURS is written in. */
  timeZone: string;
}

export function readOffice(env: EnvReader): OfficeSettings {
  return {
    hours: env.parsed('WORKING_HOURS', parseWorkingHours, 'office hours such as "Mon-Fri 09:00-18:00; Sat 10:00-14:00"') ?? null,
    timeZone: env.timeZone('TIMEZONE', 'UTC'),
  };
}
