// Departments (DEPARTMENTS_FILE): a JSON file of departments, each with its own caller, hours, zone
// and agents (departments/departments-file.ts says what it holds). Unset, the relay keeps one
// implicit department made of CALLBACK_CALLER, CALLBACK_CALLER_TYPE, WORKING_HOURS and TIMEZONE.
// A file that cannot be read or holds mistakes stops startup with one line per mistake.
import { readFileSync } from 'node:fs';
import { IMPLICIT_DEPARTMENT_ID, type DepartmentSettings } from '../departments/department.ts';
import { parseDepartmentsFile } from '../departments/departments-file.ts';
import { ConfigError, type EnvReader } from './env.ts';
import type { OfficeSettings } from './office.ts';
import type { ServiceSettings } from './service.ts';

export function readDepartments(env: EnvReader, service: ServiceSettings, office: OfficeSettings): DepartmentSettings {
  const path = env.text('DEPARTMENTS_FILE');
  if (path === undefined) {
    const { caller, callerType } = service.callback;
    return { fromFile: false, list: [{ id: IMPLICIT_DEPARTMENT_ID, name: {}, caller, callerType, hours: office.hours, timeZone: office.timeZone, agents: null }] };
  }
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch (err) {
    throw new ConfigError(`DEPARTMENTS_FILE: cannot read ${JSON.stringify(path)} (${(err as NodeJS.ErrnoException).code ?? (err as Error).message})`);
  }
  const parsed = parseDepartmentsFile(text, office.timeZone);
  if (!parsed.ok) throw new ConfigError(parsed.mistakes.map((m) => `DEPARTMENTS_FILE ${path}: ${m.replace(/\s*[\r\n]+\s*/g, ' ')}`).join('\n'));
  return { fromFile: true, list: parsed.departments };
}
