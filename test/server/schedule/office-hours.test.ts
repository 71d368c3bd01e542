import { describe, expect, it } from 'vitest';
import { parseWorkingHours } from '../../../server/src/schedule/working-hours.ts';
import { createOfficeHours, officeState } from '../../../server/src/schedule/office-hours.ts';

const week = parseWorkingHours('Mon-Fri 09:00-18:00; Sat 10:00-14:00');

describe('working hours', () => {
  it('parses day ranges, lists, split hours and overnight ranges', () => {
    expect(week[1]).toEqual([{ start: 540, end: 1080 }]);
    expect(week[6]).toEqual([{ start: 600, end: 840 }]);
    expect(week[0]).toEqual([]);
    const split = parseWorkingHours('Mon,Wed 09:00-13:00,14:00-18:00; Fri 22:00-02:00; Sun 00:00-24:00');
    expect(split[1]).toEqual([
      { start: 540, end: 780 },
      { start: 840, end: 1080 },
    ]);
    expect(split[2]).toEqual([]);
    expect(split[5]).toEqual([{ start: 1320, end: 1560 }]);
    expect(split[0]).toEqual([{ start: 0, end: 1440 }]);
  });

  it.each(['', 'Mon', 'Mon 25:00-26:00', 'Mon 09:60-10:00', 'Xyz 09:00-10:00', 'Mon 09:00'])('refuses %j with a reason', (text) => {
    expect(() => parseWorkingHours(text)).toThrow(/expected|needs|unknown day|bad time|bad hours/);
  });
});

describe('officeState in the configured time zone', () => {
  const tz = 'Europe/Kyiv'; // UTC+2 in winter, UTC+3 in summer

  it('is open inside the hours and closed outside', () => {
    // Wednesday 2026-11-18 10:00 in Kyiv = 08:00 UTC
    expect(officeState(week, tz, new Date('2026-11-18T08:00:00Z'))).toEqual({ openNow: true, nextOpenAt: null });
    // Wednesday 19:00 Kyiv → next opening Thursday 09:00 Kyiv = 07:00 UTC
    expect(officeState(week, tz, new Date('2026-11-18T17:00:00Z'))).toEqual({ openNow: false, nextOpenAt: new Date('2026-11-19T07:00:00Z') });
  });

  it('skips closed days: Saturday afternoon opens Monday morning', () => {
    const s = officeState(week, tz, new Date('2026-11-21T13:30:00Z')); // Sat 15:30 Kyiv
    expect(s).toEqual({ openNow: false, nextOpenAt: new Date('2026-11-23T07:00:00Z') });
  });

  it('follows daylight saving time', () => {
    // Friday 2026-03-27 19:00 Kyiv (UTC+2) → Saturday 10:00; DST starts Sunday 29th, Monday 09:00 is UTC+3
    expect(officeState(week, tz, new Date('2026-03-27T17:00:00Z')).nextOpenAt).toEqual(new Date('2026-03-28T08:00:00Z'));
    expect(officeState(week, tz, new Date('2026-03-28T13:00:00Z')).nextOpenAt).toEqual(new Date('2026-03-30T06:00:00Z'));
  });

  it('keeps an overnight window open after midnight', () => {
    const night = parseWorkingHours('Fri 22:00-02:00');
    expect(officeState(night, 'UTC', new Date('2026-11-21T01:00:00Z')).openNow).toBe(true); // Sat 01:00
    expect(officeState(night, 'UTC', new Date('2026-11-21T03:00:00Z')).openNow).toBe(false);
  });

  it('is always open without a schedule', () => {
    expect(officeState(null, tz, new Date())).toEqual({ openNow: true, nextOpenAt: null });
  });
});

describe('createOfficeHours: officeState kept for the minute', () => {
  const tz = 'Europe/Kyiv';

  it('agrees with officeState at every instant across a daylight-saving change and an opening', () => {
    // Sunday 2026-03-29: Kyiv clocks jump from 03:00 to 04:00 (01:00 UTC); the window opens at 04:10.
    const hours = parseWorkingHours('Sun 04:10-05:00');
    const office = createOfficeHours(hours, tz);
    const from = Date.parse('2026-03-29T00:30:00Z');
    let changes = 0;
    let last: boolean | undefined;
    for (let t = from; t < from + 100 * 60_000; t += 7_000) {
      const at = new Date(t);
      const got = office.stateAt(at);
      expect(got, at.toISOString()).toEqual(officeState(hours, tz, at));
      if (last !== undefined && got.openNow !== last) changes++;
      last = got.openNow;
    }
    expect(changes).toBe(2); // opened at 04:10 local (01:10 UTC), closed at 05:00 (02:00 UTC)
    expect(office.stateAt(new Date('2026-03-29T01:09:59.999Z')).openNow).toBe(false);
    expect(office.stateAt(new Date('2026-03-29T01:10:00.000Z')).openNow).toBe(true);
  });

  it('works the state out once per minute', () => {
    const office = createOfficeHours(week, tz);
    const first = office.stateAt(new Date('2026-11-18T17:00:01Z'));
    expect(office.stateAt(new Date('2026-11-18T17:00:59.999Z'))).toBe(first);
    const next = office.stateAt(new Date('2026-11-18T17:01:00Z'));
    expect(next).not.toBe(first);
    expect(next).toEqual(first); // still closed, same next opening
  });

  it('is always open without a schedule', () => {
    expect(createOfficeHours(null, tz).stateAt(new Date())).toEqual({ openNow: true, nextOpenAt: null });
  });
});
