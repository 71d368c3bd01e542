// DEPARTMENTS_FILE is checked in full at startup: every mistake in the file is one line naming where
// it is and what is expected, and a file without mistakes becomes the departments; without the file
// the relay keeps one implicit department made of CALLBACK_CALLER and WORKING_HOURS.
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from '../../../server/src/config/index.ts';
import { departmentsFile, SALES } from '../../support/departments.ts';

const sim = { baseUrl: 'http://127.0.0.1:9999', authKey: 'sim-key-123456', projectId: '100500', caller: '380441112233' };
const sales = SALES;
const support = { id: 'support', name: { en: 'Support' }, caller: 'support-scheme', callerType: 'scheme' };

/** The lines startup stops with for this file content. */
function mistakesOf(content: unknown, env: Record<string, string> = {}): string[] {
  const path = departmentsFile(content);
  try {
    loadConfig({ DEPARTMENTS_FILE: path, ...env }, sim);
  } catch (err) {
    expect(err).toBeInstanceOf(ConfigError);
    return (err as Error).message.split('\n').map((line) => line.replace(`DEPARTMENTS_FILE ${path}: `, ''));
  }
  throw new Error('expected startup to stop');
}

describe('DEPARTMENTS_FILE', () => {
  it('without the file: one implicit department from CALLBACK_CALLER, CALLBACK_CALLER_TYPE, WORKING_HOURS and TIMEZONE', () => {
    const config = loadConfig({ CALLBACK_CALLER: 'office-scheme', CALLBACK_CALLER_TYPE: 'scheme', WORKING_HOURS: 'Mon 10:00-11:00', TIMEZONE: 'Europe/Warsaw' }, sim);
    expect(config.departments.fromFile).toBe(false);
    expect(config.departments.list).toEqual([
      { id: 'default', name: {}, caller: 'office-scheme', callerType: 'scheme', hours: config.office.hours, timeZone: 'Europe/Warsaw', agents: null },
    ]);
  });

  it('reads each department, with callerType default, always open, TIMEZONE and any agent when left out', () => {
    const config = loadConfig({ DEPARTMENTS_FILE: departmentsFile({ departments: [sales, support] }), TIMEZONE: 'Europe/Warsaw' }, sim);
    expect(config.departments.fromFile).toBe(true);
    const [first, second] = config.departments.list;
    expect(first).toMatchObject({
      id: 'sales',
      name: { en: 'Sales', uk: 'Продажі' },
      caller: '380441112233',
      callerType: 'default',
      timeZone: 'Europe/Kyiv',
      agents: ['manager1', 'manager2'],
    });
    expect(first!.hours![1]).toEqual([{ start: 540, end: 1080 }]);
    expect(first!.hours![0]).toEqual([]);
    expect(second).toEqual({ id: 'support', name: { en: 'Support' }, caller: 'support-scheme', callerType: 'scheme', hours: null, timeZone: 'Europe/Warsaw', agents: null });
    const untyped = loadConfig({ DEPARTMENTS_FILE: departmentsFile({ departments: [{ id: 'x', name: { en: 'X' }, caller: '380441112233' }] }) }, sim);
    expect(untyped.departments.list[0]).toMatchObject({ callerType: 'default', timeZone: 'UTC' });
  });

  it('names every mistake at once, one line each, saying where it is and what is expected', () => {
    const lines = mistakesOf({
      departments: [
        sales,
        { ...support, id: 'Support Team', callerType: 'sip', hours: 'Mox-Fri 09:00-18:00', timezone: 'Europe/Kyyiv' },
        { ...support, id: 'three', name: {}, caller: 'has space', agents: [], extra: 1 },
      ],
    });
    expect(lines).toEqual([
      'departments[1].id: expected an id of 1 to 32 lower-case letters, digits, "-" or "_", such as "sales"',
      'departments[1].callerType: expected "default" or "scheme"',
      'departments[1].hours: expected office hours such as "Mon-Fri 09:00-18:00"; unknown day "Mox" (use Mon, Tue, Wed, Thu, Fri, Sat, Sun)',
      'departments[1].timezone: expected an IANA time zone such as Europe/Kyiv',
      'departments[2].name: expected at least one name, such as { "en": "Sales" }',
      'departments[2].caller: expected a number, SIP login or scheme id (2 to 64 characters, no spaces)',
      'departments[2].agents: expected at least one SIP login',
      'departments[2]: unknown field "extra"',
    ]);
    expect(lines.every((line) => !line.includes('\n'))).toBe(true);
  });

  it('refuses duplicate ids', () => {
    expect(mistakesOf({ departments: [sales, support, { ...support, name: { en: 'Sales again' }, id: 'sales' }] })).toEqual([
      'departments[2].id: "sales" is used by an earlier department; each id must be unique',
    ]);
  });

  it('refuses bad hours, a missing field, a bad name and a wrong type, each in its own words', () => {
    expect(mistakesOf({ departments: [{ ...sales, hours: 'Mon-Fri 09:00-25:00' }] })).toEqual([
      'departments[0].hours: expected office hours such as "Mon-Fri 09:00-18:00"; bad time "25:00" (use HH:MM, 00:00 to 24:00)',
    ]);
    const { caller: _caller, ...noCaller } = sales;
    expect(mistakesOf({ departments: [noCaller] })).toEqual(['departments[0].caller: required: the number, SIP login or scheme id to call first']);
    expect(mistakesOf({ departments: [{ ...sales, id: 7, name: 'Sales' }] })).toEqual([
      'departments[0].id: expected an id such as "sales"',
      'departments[0].name: expected names per language, such as { "en": "Sales" }',
    ]);
    expect(mistakesOf({ departments: [{ ...sales, name: { english: 'Sales' } }] })).toEqual(['departments[0].name.english: expected a language code such as "en" or "uk"']);
    expect(mistakesOf({ departments: [{ ...sales, agents: 'manager1' }] })).toEqual(['departments[0].agents: expected a list of SIP logins']);
  });

  it('refuses a file that is not the expected shape, not JSON, or cannot be read', () => {
    expect(mistakesOf({ departments: [] })).toEqual(['departments: expected at least one department']);
    expect(mistakesOf({ sales })).toEqual(['departments: expected a list of departments', 'the file: unknown field "sales"']);
    expect(mistakesOf('{ "departments": [ ')[0]).toMatch(/^not valid JSON: /);
    expect(() => loadConfig({ DEPARTMENTS_FILE: join(departmentsFile('{}'), '..', 'missing.json') }, sim)).toThrow(/^DEPARTMENTS_FILE: cannot read ".*missing\.json" \(ENOENT\)$/);
  });
});
