// The environment reader on its own: each helper's accepted values, defaults left to the caller
// (undefined when unset or empty), and its one error line.
import { describe, expect, it } from 'vitest';
import { ConfigError, envReader, expectedError, requiredError } from '../../../server/src/config/env.ts';

const read = (vars: Record<string, string>) => envReader(vars);

function messageOf(run: () => unknown): string {
  try {
    run();
  } catch (err) {
    expect(err).toBeInstanceOf(ConfigError);
    return (err as Error).message;
  }
  throw new Error('expected a ConfigError');
}

describe('envReader', () => {
  it('treats an empty variable as unset', () => {
    const env = read({ A: '', B_MS: '', C: '' });
    expect(env.text('A')).toBeUndefined();
    expect(env.duration('B_MS', 0, 10)).toBeUndefined();
    expect(env.flag('C')).toBeUndefined();
    expect(env.list('C', (x) => x, 'anything')).toBeUndefined();
  });

  it('reads whole numbers within bounds, nothing else', () => {
    expect(read({ N: '0' }).whole('N', 0, 5)).toBe(0);
    expect(read({ N: '5' }).whole('N', 0, 5)).toBe(5);
    for (const bad of ['6', '-1', '1.5', '1e3', ' 3', 'three', '0x10']) {
      expect(messageOf(() => read({ N: bad }).whole('N', 0, 5))).toBe(`N: expected a whole number from 0 to 5, got ${JSON.stringify(bad)}`);
    }
  });

  it('names the unit of a duration from its name', () => {
    expect(read({ WAIT_MS: '250' }).duration('WAIT_MS', 0, 1000)).toBe(250);
    expect(messageOf(() => read({ WAIT_MS: '2000' }).duration('WAIT_MS', 0, 1000))).toBe('WAIT_MS: expected a whole number from 0 to 1000 milliseconds, got "2000"');
    expect(messageOf(() => read({ WAIT_SECONDS: 'x' }).duration('WAIT_SECONDS', 1, 9))).toBe('WAIT_SECONDS: expected a whole number from 1 to 9 seconds, got "x"');
    expect(messageOf(() => read({ KEEP_DAYS: '0' }).duration('KEEP_DAYS', 1, 9))).toBe('KEEP_DAYS: expected a whole number from 1 to 9 days, got "0"');
    // A duration without a unit in its name is a mistake in the code, not in the environment.
    expect(() => read({}).duration('WAIT', 0, 1)).toThrow(/not named for a unit/);
  });

  it('reads flags as true/false, 1/0, yes/no', () => {
    expect(['true', '1', 'yes'].map((v) => read({ F: v }).flag('F'))).toEqual([true, true, true]);
    expect(['false', '0', 'no'].map((v) => read({ F: v }).flag('F'))).toEqual([false, false, false]);
    for (const bad of ['TRUE', 'on', 'toString']) expect(messageOf(() => read({ F: bad }).flag('F'))).toMatch(/^F: expected true or false/);
  });

  it('reads one of a set of words', () => {
    expect(read({ W: 'b' }).oneOf('W', ['a', 'b'])).toBe('b');
    expect(messageOf(() => read({ W: 'c' }).oneOf('W', ['a', 'b']))).toBe('W: expected a or b, got "c"');
    expect(messageOf(() => read({ W: 'd' }).oneOf('W', ['a', 'b', 'c']))).toBe('W: expected one of a, b or c, got "d"');
  });

  it('reads comma lists: trimmed, empty entries dropped, at least one, each checked', () => {
    const upper = (x: string) => (/^[a-z]+$/.test(x) ? x.toUpperCase() : null);
    expect(read({ L: ' a, b ,,c ' }).list('L', upper, 'letters')).toEqual(['A', 'B', 'C']);
    expect(messageOf(() => read({ L: 'a, 1' }).list('L', upper, 'letters'))).toBe('L: expected letters, got "1"');
    expect(messageOf(() => read({ L: ' , ' }).list('L', upper, 'letters'))).toBe('L: expected letters, got " , "');
  });

  it('reads origins as browsers send them', () => {
    expect(read({ O: 'https://shop.example/' }).origin('O')).toBe('https://shop.example');
    expect(read({ O: 'https://a.example, http://b.example:8080' }).origins('O')).toEqual(['https://a.example', 'http://b.example:8080']);
    for (const bad of ['shop.example', 'https://shop.example/path', 'ftp://shop.example']) {
      expect(messageOf(() => read({ O: bad }).origin('O'))).toBe(`O: expected an origin such as https://shop.example.com, got "${bad}"`);
    }
  });

  it('applies the http(s) rules: any http(s) URL for a service, https (or http to loopback) without credentials for outbound data', () => {
    expect(read({ U: ' https://api.example.net/v1 ' }).url('U', 'http')).toBe('https://api.example.net/v1');
    for (const bad of ['ftp://x', 'http:example.com', 'example.com', 'https://']) {
      expect(messageOf(() => read({ U: bad }).url('U', 'http'))).toBe(`U: expected an http(s) URL, got "${bad}"`);
    }
    for (const ok of ['https://crm.example/h', 'http://127.0.0.1:9000/h', 'http://localhost/h', 'http://[::1]/h']) expect(read({ U: ok }).url('U', 'outbound')).toBe(ok);
    for (const bad of ['http://crm.example/h', 'https://user:pw@crm.example/', 'http://127.0.0.1.evil.example/']) {
      expect(messageOf(() => read({ U: bad }).url('U', 'outbound', { secret: true }))).toBe('U: expected an https URL (http only for localhost or 127.0.0.1), without credentials');
    }
  });

  it('reads text by a pattern or a check, and never echoes a secret', () => {
    const rule = { pattern: /^[a-z]{3}$/, expected: 'three letters' };
    expect(read({ T: 'abc' }).text('T', rule)).toBe('abc');
    expect(messageOf(() => read({ T: 'abcd' }).text('T', rule))).toBe('T: expected three letters, got "abcd"');
    const message = messageOf(() => read({ T: 'hunter2' }).text('T', { check: (s) => s.length >= 16, expected: 'a long secret', secret: true }));
    expect(message).toBe('T: expected a long secret');
  });

  it('checks time zones, the fallback too', () => {
    expect(read({ Z: 'Europe/Warsaw' }).timeZone('Z', 'UTC')).toBe('Europe/Warsaw');
    expect(read({}).timeZone('Z', 'UTC')).toBe('UTC');
    expect(messageOf(() => read({}).timeZone('Z', 'Mars/Base'))).toBe('Z: expected an IANA time zone such as Europe/Kyiv, got "Mars/Base"');
  });

  it("puts a parser's problem after what is expected", () => {
    const parse = (v: string) => {
      if (v !== 'ok') throw new Error(`"${v}" is not ok`);
      return 1;
    };
    expect(read({ P: 'ok' }).parsed('P', parse, 'ok')).toBe(1);
    expect(messageOf(() => read({ P: 'no' }).parsed('P', parse, 'the word ok'))).toBe('P: expected the word ok; "no" is not ok');
  });

  it('keeps every message on one line and a long value short', () => {
    expect(messageOf(() => read({ W: 'a\nb' }).oneOf('W', ['a', 'b']))).toBe('W: expected a or b, got "a\\nb"');
    const long = messageOf(() => read({ W: 'x'.repeat(500) }).oneOf('W', ['a', 'b']));
    expect(long).toBe(`W: expected a or b, got "${'x'.repeat(80)}…"`);
    const twoLines = () => {
      throw new Error('two\nlines');
    };
    expect(messageOf(() => read({ P: 'x' }).parsed('P', twoLines, 'y'))).toBe('P: expected y; two lines');
    expect(expectedError('A', 'b').message).toBe('A: expected b');
    expect(requiredError('A', 'when B is set (a value)').message).toBe('A: required when B is set (a value)');
  });
});
