// "Call me later": the office's open windows as instants (what /api/status offers the time picker)
// and the checks a visitor's scheduledFor meets.
import { describe, expect, it } from 'vitest';
import { openWindows } from '../../../server/src/schedule/open-windows.ts';
import { createOfficeHours } from '../../../server/src/schedule/office-hours.ts';
import { checkScheduledFor } from '../../../server/src/schedule/scheduled-for.ts';
import { parseWorkingHours } from '../../../server/src/schedule/working-hours.ts';
import { RelayError } from '../../../server/src/contract/errors.ts';
import { startSystem, type System } from '../../support/system.ts';
import { afterEach } from 'vitest';

const week = parseWorkingHours('Mon-Fri 09:00-18:00; Sat 10:00-14:00');
const tz = 'Europe/Kyiv'; // UTC+2 in winter, UTC+3 in summer
const iso = (ws: ReturnType<typeof openWindows>) => ws.map((w) => [w.opensAt.toISOString(), w.closesAt.toISOString()]);

describe('openWindows', () => {
  it("lists each day's hours as instants, skipping closed days, clipped to the range", () => {
    // Friday 2026-11-20 15:00 Kyiv (13:00 UTC) to Tuesday 12:00 Kyiv.
    expect(iso(openWindows(week, tz, new Date('2026-11-20T13:00:00Z'), new Date('2026-11-24T10:00:00Z')))).toEqual([
      ['2026-11-20T13:00:00.000Z', '2026-11-20T16:00:00.000Z'],
      ['2026-11-21T08:00:00.000Z', '2026-11-21T12:00:00.000Z'],
      ['2026-11-23T07:00:00.000Z', '2026-11-23T16:00:00.000Z'],
      ['2026-11-24T07:00:00.000Z', '2026-11-24T10:00:00.000Z'],
    ]);
  });

  it('follows daylight saving: the same 09:00 is 07:00 UTC in winter and 06:00 UTC in summer', () => {
    // Kyiv switches to summer time on Sunday 2026-03-29.
    const ws = iso(openWindows(week, tz, new Date('2026-03-27T00:00:00Z'), new Date('2026-03-31T00:00:00Z')));
    expect(ws[0]).toEqual(['2026-03-27T07:00:00.000Z', '2026-03-27T16:00:00.000Z']);
    expect(ws.at(-1)).toEqual(['2026-03-30T06:00:00.000Z', '2026-03-30T15:00:00.000Z']);
  });

  it("joins an overnight range with the next day's hours, and includes yesterday's range still running", () => {
    const nights = parseWorkingHours('Fri 22:00-24:00; Sat 00:00-02:00');
    expect(iso(openWindows(nights, 'UTC', new Date('2026-11-20T00:00:00Z'), new Date('2026-11-22T00:00:00Z')))).toEqual([['2026-11-20T22:00:00.000Z', '2026-11-21T02:00:00.000Z']]);
    const overnight = parseWorkingHours('Fri 22:00-02:00');
    expect(iso(openWindows(overnight, 'UTC', new Date('2026-11-21T01:00:00Z'), new Date('2026-11-22T00:00:00Z')))).toEqual([
      ['2026-11-21T01:00:00.000Z', '2026-11-21T02:00:00.000Z'],
    ]);
  });

  it('is one window for the whole range without a schedule, and none for an empty range', () => {
    const from = new Date('2026-11-20T00:00:00Z');
    const until = new Date('2026-11-27T00:00:00Z');
    expect(iso(openWindows(null, tz, from, until))).toEqual([[from.toISOString(), until.toISOString()]]);
    expect(openWindows(week, tz, until, from)).toEqual([]);
  });

  it('OfficeHours.windowsAt covers SCHEDULE_MAX_DAYS from the current minute, worked out once per minute', () => {
    const office = createOfficeHours(week, tz, 3);
    const at = new Date('2026-11-20T13:00:30Z');
    const first = office.windowsAt(at);
    expect(office.windowsAt(new Date('2026-11-20T13:00:59Z'))).toBe(first);
    expect(first[0]!.opensAt.toISOString()).toBe('2026-11-20T13:00:00.000Z');
    expect(first.at(-1)!.closesAt.getTime()).toBeLessThanOrEqual(Date.parse('2026-11-23T13:00:00Z'));
    expect(office.windowsAt(new Date('2026-11-20T13:01:00Z'))).not.toBe(first);
  });
});

describe('checkScheduledFor', () => {
  const now = new Date('2026-11-20T13:00:00Z'); // Friday 15:00 in Kyiv
  const rules = { maxDays: 7, windows: openWindows(week, tz, now, new Date(now.getTime() + 7 * 86_400_000)) };
  const codeOf = (text: string) => {
    try {
      checkScheduledFor(text, now, rules);
      return 'ok';
    } catch (err) {
      return err instanceof RelayError ? err.code : String(err);
    }
  };

  it('takes a time inside office hours, written with any offset', () => {
    expect(checkScheduledFor('2026-11-23T10:30:00+02:00', now, rules).toISOString()).toBe('2026-11-23T08:30:00.000Z');
    // The visitor in New York writes their own offset: 03:30 in New York is 10:30 in Kyiv.
    expect(checkScheduledFor('2026-11-23T03:30:00-05:00', now, rules).toISOString()).toBe('2026-11-23T08:30:00.000Z');
    expect(codeOf('2026-11-20T13:00Z')).toBe('ok');
  });

  it('refuses a malformed time, one without an offset, the past, too far ahead and outside hours, each with its own code', () => {
    for (const bad of ['tomorrow', '2026-11-23T10:30:00', '2026-11-23', '2026-13-40T10:30:00Z', '2026-11-23T10:30:00+0200'])
      expect([bad, codeOf(bad)]).toEqual([bad, 'invalid_request']);
    expect(codeOf('2026-11-20T12:58:00Z')).toBe('scheduled_in_past');
    expect(codeOf('2026-11-20T12:59:30Z')).toBe('ok'); // a moment ago is now
    expect(codeOf('2026-11-28T08:00:00Z')).toBe('scheduled_too_far');
    expect(codeOf('2026-11-22T10:00:00+02:00')).toBe('scheduled_outside_hours'); // Sunday
    expect(codeOf('2026-11-23T18:00:00+02:00')).toBe('scheduled_outside_hours'); // closing time itself
  });
});

describe('GET /api/status', () => {
  let system: System | undefined;
  afterEach(async () => {
    await system?.close();
    system = undefined;
  });

  it('gives the open windows of the coming SCHEDULE_MAX_DAYS days, from the current minute', async () => {
    const s = (system = await startSystem({ WORKING_HOURS: 'Mon-Sun 00:00-12:00', TIMEZONE: 'UTC', SCHEDULE_MAX_DAYS: '2' }));
    const thisMinute = () => Math.floor(Date.now() / 60_000) * 60_000;
    let minute: number;
    let status: { windows: Array<{ opensAt: string; closesAt: string }> };
    // Asked again if the minute turned mid-request (the windows start at the current minute).
    do {
      minute = thisMinute();
      status = (await (await fetch(`${s.relayUrl}/api/status`)).json()) as typeof status;
    } while (thisMinute() !== minute);
    const from = new Date(minute);
    const expected = iso(openWindows(parseWorkingHours('Mon-Sun 00:00-12:00'), 'UTC', from, new Date(minute + 2 * 86_400_000)));
    expect(status.windows.map((w) => [w.opensAt, w.closesAt])).toEqual(expected);
    expect(expected.length).toBeGreaterThanOrEqual(2);
  });
});
