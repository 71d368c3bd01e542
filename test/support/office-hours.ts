// Working hours for a relay that must say "closed" whenever a test runs.

/** WORKING_HOURS of one hour every day, starting two hours from now in `timeZone`: closed right now. */
export function hoursClosedNow(timeZone: string): string {
  const hourNow = Number(new Intl.DateTimeFormat('en-GB', { hour: '2-digit', hourCycle: 'h23', timeZone }).format(new Date()));
  const start = (hourNow + 2) % 24;
  const hh = (h: number) => String(h).padStart(2, '0');
  // A window cannot end at 24:00: the last hour of the day ends at 23:59.
  return `Mon-Sun ${hh(start)}:00-${start === 23 ? '23:59' : `${hh(start + 1)}:00`}`;
}
