// The two pure building blocks the contract rests on: project-local time (calldate, from/to across
// daylight-saving switches) and what counts as a phone number.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { internationalNumber, maskNumber } from '../../server/simulator/numbers.ts';
import { projectTime } from '../../server/simulator/project-time.ts';

const kyiv = projectTime('Europe/Kyiv');

describe('project time (Europe/Kyiv)', () => {
  it.each([
    ['2019-06-02T06:30:47Z', '2019-06-02T09:30:47+0300'],
    ['2019-01-15T10:00:00Z', '2019-01-15T12:00:00+0200'],
    // DST starts 2024-03-31 01:00 UTC (03:00 local becomes 04:00).
    ['2024-03-31T00:59:59Z', '2024-03-31T02:59:59+0200'],
    ['2024-03-31T01:00:00Z', '2024-03-31T04:00:00+0300'],
  ])('formats %s as %s', (iso, expected) => {
    expect(kyiv.formatCalldate(new Date(iso))).toBe(expected);
  });

  it('uses other zones too', () => {
    expect(projectTime('America/New_York').formatCalldate(new Date('2019-06-02T06:30:47Z'))).toBe('2019-06-02T02:30:47-0400');
    expect(projectTime('UTC').formatCalldate(new Date('2019-06-02T06:30:47Z'))).toBe('2019-06-02T06:30:47+0000');
  });

  it.each(['Europe/Kyiv', 'America/New_York', 'Australia/Lord_Howe', 'Asia/Kathmandu', 'America/St_Johns'])(
    'agrees with an independent Intl computation at any instant in %s',
    (zone) => {
      const time = projectTime(zone);
      const reference = new Intl.DateTimeFormat('en-GB', {
        timeZone: zone,
        hourCycle: 'h23',
        year: 'numeric',
        month: '2-digit',
        day: '2-digit',
        hour: '2-digit',
        minute: '2-digit',
        second: '2-digit',
        timeZoneName: 'longOffset',
      });
      const expected = (date: Date) => {
        const p = Object.fromEntries(reference.formatToParts(date).map((x) => [x.type, x.value]));
        const offset = p.timeZoneName === 'GMT' ? '+0000' : String(p.timeZoneName).replace('GMT', '').replace(':', '');
        return `${p.year}-${p.month}-${p.day}T${p.hour}:${p.minute}:${p.second}${offset}`;
      };
      fc.assert(
        fc.property(fc.integer({ min: Date.UTC(2000, 0, 1) / 1000, max: Date.UTC(2040, 0, 1) / 1000 }), (seconds) => {
          const date = new Date(seconds * 1000);
          expect(time.formatCalldate(date)).toBe(expected(date));
        }),
        { numRuns: 2000 },
      );
      // Around every DST switch of a year, second by second near the switch.
      for (let t = Date.UTC(2024, 0, 1); t < Date.UTC(2025, 0, 1); t += 3_600_000) {
        const date = new Date(t);
        expect(time.formatCalldate(date)).toBe(expected(date));
        expect(time.formatCalldate(new Date(t - 1000))).toBe(expected(new Date(t - 1000)));
        expect(time.formatCalldate(new Date(t + 1_800_000))).toBe(expected(new Date(t + 1_800_000)));
      }
    },
  );

  it('parses YYYY-MM-DD HH:MM:SS as local time', () => {
    expect(kyiv.parseLocal('2019-06-02 09:30:47')?.toISOString()).toBe('2019-06-02T06:30:47.000Z');
    expect(kyiv.parseLocal('2019-01-15 12:00:00')?.toISOString()).toBe('2019-01-15T10:00:00.000Z');
  });

  it.each(['2019-06-02', '2019-06-02T09:30:47', '2019-02-29 10:00:00', '2019-06-02 24:00:00', '2019-6-2 9:30:47', ''])('refuses %j', (text) => {
    expect(kyiv.parseLocal(text)).toBeNull();
  });

  it('round-trips every whole second (format then parse)', () => {
    fc.assert(
      fc.property(fc.integer({ min: Date.UTC(2000, 0, 1) / 1000, max: Date.UTC(2040, 0, 1) / 1000 }), (seconds) => {
        const date = new Date(seconds * 1000);
        const local = kyiv.formatLocal(date);
        const back = kyiv.parseLocal(local);
        // In the repeated autumn hour a local time names two instants; either formats back the same.
        expect(back && kyiv.formatLocal(back)).toBe(local);
      }),
    );
  });
});

describe('phone numbers', () => {
  it.each([
    ['380501234567', '380501234567'],
    ['+380501234567', '380501234567'],
    [' 380441112233 ', '380441112233'],
    ['12025550123', '12025550123'],
  ])('accepts %j as %j', (input, digits) => {
    expect(internationalNumber(input)).toBe(digits);
  });

  it.each(['0501234567', '3800501234567', '+38 050 123 45 67', '380-50-123-45-67', '38050', 'manager1', '', '00380501234567'])('refuses %j', (input) => {
    expect(internationalNumber(input)).toBeNull();
  });

  it('masks numbers for logs, keeping only a prefix and the last two digits', () => {
    expect(maskNumber('380501234567')).toBe('38050*****67');
    expect(maskNumber('380501234567')).not.toContain('1234');
  });
});
