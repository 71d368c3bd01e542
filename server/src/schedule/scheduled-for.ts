// "Call me later": the `scheduledFor` a visitor asks for, checked at request time like everything
// else about the request. It must be an ISO 8601 instant with an offset (the visitor's browser
// writes its own), not in the past, at most SCHEDULE_MAX_DAYS ahead, and inside office hours.
import { RelayError } from '../contract/errors.ts';
import { isWithin, type OpenWindow } from './open-windows.ts';

/** `2026-11-25T10:30:00+02:00`, `…T10:30Z`, `…T10:30:00.000Z`: a date, a time and an offset, nothing else. */
const ISO_WITH_OFFSET = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(?::\d{2}(?:\.\d{1,3})?)?(?:Z|[+-]\d{2}:\d{2})$/;

/** A moment ago is still "now": the visitor's clock and ours differ by a little. */
const CLOCK_SKEW_MS = 60_000;

export interface ScheduleRules {
  maxDays: number;
  /** The open windows from now to maxDays ahead (OfficeHours.windowsAt). */
  windows: readonly OpenWindow[];
}

export function checkScheduledFor(text: string, now: Date, rules: ScheduleRules): Date {
  const at = ISO_WITH_OFFSET.test(text) ? new Date(text) : null;
  if (at === null || Number.isNaN(at.getTime())) {
    throw new RelayError('invalid_request', 'The field "scheduledFor" must be an ISO 8601 time with its offset, e.g. 2026-11-25T10:30:00+02:00.', { field: 'scheduledFor' });
  }
  if (at.getTime() < now.getTime() - CLOCK_SKEW_MS) {
    throw new RelayError('scheduled_in_past', 'The time you picked has already passed; please pick another.', { field: 'scheduledFor' });
  }
  if (at.getTime() > now.getTime() + rules.maxDays * 86_400_000) {
    throw new RelayError('scheduled_too_far', `Calls can be booked at most ${rules.maxDays} days ahead; please pick an earlier time.`, { field: 'scheduledFor' });
  }
  // A time a moment ago counts as now.
  const effective = at < now ? now : at;
  if (!isWithin(rules.windows, effective)) {
    throw new RelayError('scheduled_outside_hours', 'Nobody is at the office at the time you picked; please pick a time within office hours.', { field: 'scheduledFor' });
  }
  return effective;
}
