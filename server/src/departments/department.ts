// A department: a line of the business (sales, support, …) with its own caller, office hours and
// agents. The relay always has at least one: without DEPARTMENTS_FILE the one implicit department is
// CALLBACK_CALLER, CALLBACK_CALLER_TYPE, WORKING_HOURS and TIMEZONE, and nothing it answers names it.
import type { WeeklySchedule } from '../schedule/working-hours.ts';

export interface Department {
  id: string;
  /** Its name per language (`en`, `uk`, …), as the widget shows it; empty for the implicit department. */
  name: Readonly<Record<string, string>>;
  /** Whom the service rings first: a number, SIP login or scheme id. */
  caller: string;
  callerType: 'default' | 'scheme';
  /** null: always open. */
  hours: WeeklySchedule | null;
  /** The zone `hours` are written in. */
  timeZone: string;
  /** The SIP logins whose status says whether it can answer now; null: any agent of the project. */
  agents: readonly string[] | null;
}

export interface DepartmentSettings {
  /** Whether the departments come from DEPARTMENTS_FILE: only then do answers name them. */
  fromFile: boolean;
  /** In the file's order; the first is the one a request that names none gets. */
  list: readonly [Department, ...Department[]];
}

/** The id of the one department a relay without DEPARTMENTS_FILE keeps. */
export const IMPLICIT_DEPARTMENT_ID = 'default';

/** The department of that id, or undefined. */
export const findDepartment = (settings: DepartmentSettings, id: string): Department | undefined => settings.list.find((d) => d.id === id);

/**
 * The department a job belongs to: the one it names, or the first one, for a job that names none
 * (booked before departments existed) or one taken out of the file since (its call still goes out,
 * with the first department's caller and hours, rather than not at all).
 */
export function departmentOf(settings: DepartmentSettings, id: string | null | undefined): Department {
  return (id != null && findDepartment(settings, id)) || settings.list[0];
}
