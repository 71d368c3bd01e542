// Service dates: `+0300` offsets, project-local `from`/`to`, days across DST switches.
import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { formatServiceTime, parseCalldate } from '../../../server/src/calltracking/datetime.ts';
import { localDay, startOfLocalDay, startOfNextLocalDay } from '../../../server/src/schedule/zoned.ts';
import { dayPieces } from '../../../server/src/calltracking/calls-list.ts';
import { parseCsvRecords, CsvError } from '../../../server/src/calltracking/csv.ts';
import { callRecordSchema } from '../../../server/src/calltracking/call-fields.ts';

const TZ = 'Europe/Kyiv';

describe('calldate', () => {
  it('reads the documented offset without a colon', () => {
    expect(parseCalldate('2019-06-02T09:30:47+0300', TZ)!.toISOString()).toBe('2019-06-02T06:30:47.000Z');
    expect(parseCalldate('2019-06-02T09:30:47-0130', TZ)!.toISOString()).toBe('2019-06-02T11:00:47.000Z');
  });
  it('reads the lenient forms', () => {
    expect(parseCalldate('2019-06-02T09:30:47+03:00', TZ)!.toISOString()).toBe('2019-06-02T06:30:47.000Z');
    expect(parseCalldate('2019-06-02 09:30:47Z', TZ)!.toISOString()).toBe('2019-06-02T09:30:47.000Z');
    expect(parseCalldate('2019-06-02T09:30:47.250+0300', TZ)!.toISOString()).toBe('2019-06-02T06:30:47.250Z');
    // No offset: project time (Kyiv is UTC+2 in January).
    expect(parseCalldate('2019-01-02 09:30:47', TZ)!.toISOString()).toBe('2019-01-02T07:30:47.000Z');
  });
  it('refuses what is not a date', () => {
    for (const bad of ['', 'yesterday', '2019-02-30T10:00:00+0300', '2019-06-02T25:00:00+0300', '2019-06-02T09:30:47+2500', '2019-06-02']) {
      expect(parseCalldate(bad, TZ), bad).toBeNull();
    }
  });
  it('formatting in the project zone and parsing back agree for any instant', () => {
    fc.assert(
      fc.property(fc.date({ min: new Date('2000-01-01'), max: new Date('2040-01-01'), noInvalidDate: true }), (d) => {
        const whole = new Date(Math.floor(d.getTime() / 1000) * 1000);
        const local = formatServiceTime(whole, TZ);
        expect(local).toMatch(/^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}$/);
        const back = parseCalldate(local, TZ)!;
        // The repeated hour at the autumn switch reads as its first occurrence.
        expect([0, 3600_000]).toContain(whole.getTime() - back.getTime());
      }),
    );
  });
});

describe('project-local days', () => {
  it('a DST day is 23 or 25 hours long', () => {
    const spring = startOfLocalDay(new Date('2024-03-31T12:00:00Z'), TZ);
    expect(spring.toISOString()).toBe('2024-03-30T22:00:00.000Z');
    expect(startOfNextLocalDay(spring, TZ).getTime() - spring.getTime()).toBe(23 * 3600_000);
    const autumn = startOfLocalDay(new Date('2024-10-27T12:00:00Z'), TZ);
    expect(startOfNextLocalDay(autumn, TZ).getTime() - autumn.getTime()).toBe(25 * 3600_000);
    expect(localDay(new Date('2024-10-26T21:30:00Z'), TZ)).toBe('2024-10-27');
  });
  it('pieces cover the period exactly, one day each, without overlap', () => {
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 10 * 86400 }), fc.integer({ min: 0, max: 20 * 86400 }), (startS, lengthS) => {
        const from = new Date(Date.UTC(2024, 2, 25) + startS * 1000);
        const to = new Date(from.getTime() + lengthS * 1000);
        const pieces = dayPieces(from, to, TZ);
        expect(pieces[0]![0].getTime()).toBe(from.getTime());
        expect(pieces.at(-1)![1].getTime()).toBe(to.getTime());
        for (let i = 1; i < pieces.length; i++) expect(pieces[i]![0].getTime()).toBe(pieces[i - 1]![1].getTime() + 1000);
        for (const [a, b] of pieces) expect(localDay(a, TZ)).toBe(localDay(b, TZ));
      }),
    );
  });
});

describe('csv', () => {
  it('reads semicolons, quotes, doubled quotes, line breaks in cells, CRLF and a BOM', () => {
    const text = '\ufeffa;b;c\r\n1;"x;y";"say ""hi"""\r\n2;"two\nlines";\r\n';
    expect(parseCsvRecords(text)).toEqual([
      { a: '1', b: 'x;y', c: 'say "hi"' },
      { a: '2', b: 'two\nlines', c: '' },
    ]);
    expect(parseCsvRecords('a;b\n1;2')).toEqual([{ a: '1', b: '2' }]);
  });
  it('a header only is no rows; a ragged or cut-off file is an error', () => {
    expect(parseCsvRecords('a;b\r\n')).toEqual([]);
    expect(parseCsvRecords('')).toEqual([]);
    expect(() => parseCsvRecords('a;b\r\n1;2;3\r\n')).toThrow(CsvError);
    expect(() => parseCsvRecords('a;b\r\n1;"2')).toThrow(CsvError);
  });
});

describe('lenient rows', () => {
  const schema = callRecordSchema(['calldate', 'billsec', 'waittime', 'has_recording', 'caller', 'disposition'], TZ);
  it('numbers from strings, flags from 0/1, text from numbers', () => {
    expect(schema.parse({ calldate: '2019-06-02T09:30:47+0300', billsec: '11', waittime: '', has_recording: '1', caller: 380441112233, disposition: 'ANSWERED' })).toEqual({
      calldate: new Date('2019-06-02T06:30:47Z'),
      billsec: 11,
      waittime: 0,
      has_recording: true,
      caller: '380441112233',
      disposition: 'ANSWERED',
    });
  });
  it('refuses values that cannot be read', () => {
    expect(schema.safeParse({ calldate: 'soon', billsec: 1, waittime: 1, has_recording: 0, caller: '', disposition: '' }).success).toBe(false);
    expect(schema.safeParse({ calldate: '2019-06-02T09:30:47+0300', billsec: 'ten', waittime: 1, has_recording: 0, caller: '', disposition: '' }).success).toBe(false);
  });
});
