// The departments as the request path uses them: the one a request names (an unknown id is the
// visitor's mistake, 400), and each department's office hours, worked out at most once a minute
// (schedule/office-hours.ts), like the single office's.
import { RelayError } from '../contract/errors.ts';
import { createOfficeHours, type OfficeHours } from '../schedule/office-hours.ts';
import { findDepartment, type Department, type DepartmentSettings } from './department.ts';

export interface Departments {
  settings: DepartmentSettings;
  /** The department a request names, or the first when it names none; an unknown id is `400 invalid_request`, field `department`. */
  requested(id: string | undefined): Department;
  /** The department's office hours, over SCHEDULE_MAX_DAYS for its open windows. */
  officeOf(department: Department): OfficeHours;
}

export function createDepartments(settings: DepartmentSettings, scheduleMaxDays: number): Departments {
  const offices = new Map(settings.list.map((d) => [d.id, createOfficeHours(d.hours, d.timeZone, scheduleMaxDays)]));
  return {
    settings,
    requested(id) {
      if (id === undefined) return settings.list[0];
      const found = findDepartment(settings, id);
      if (!found) throw new RelayError('invalid_request', 'There is no such department; please pick one of the departments offered.', { field: 'department' });
      return found;
    },
    officeOf: (department) => offices.get(department.id)!,
  };
}
