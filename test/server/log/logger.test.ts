import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { createLogger, maskPhone } from '../../../server/src/log/index.ts';
import { tempDir } from '../../support/temp-dirs.ts';

describe('logger', () => {
  it('writes one JSON object per line with level, message and fields', () => {
    const lines: string[] = [];
    const log = createLogger({ write: (l) => lines.push(l) }).child({ requestId: 'r1' });
    log.info('hello', { n: 1 });
    log.debug('hidden');
    expect(lines).toHaveLength(1);
    expect(JSON.parse(lines[0]!)).toMatchObject({ level: 'info', msg: 'hello', requestId: 'r1', n: 1 });
  });

  it('never prints a secret or a full phone number, wherever it hides', () => {
    const lines: string[] = [];
    const log = createLogger({ secrets: ['top-secret-auth-key'], write: (l) => lines.push(l) });
    log.error('failed', { err: new Error('upstream said 380501234567 is bad with key top-secret-auth-key'), url: '/x?phone=%2B380 50 123 45 67' });
    const text = lines.join('\n');
    expect(text).not.toContain('top-secret-auth-key');
    expect(text).not.toContain('380501234567');
    expect(text).not.toMatch(/123 45 67/);
    expect(text).toContain('[secret]');
    expect(text).toContain('380*******67');
  });

  it('writes to its destination asynchronously, in order, each line masked, nothing lost on flush', async () => {
    const file = join(tempDir('log'), 'out.log');
    const root = createLogger({ destination: file });
    const log = root.child({ requestId: 'r1' });
    log.info('one', { phone: '+380501234567' });
    log.warn('two');
    // A flood: every line arrives, none is dropped while earlier ones are being written.
    for (let i = 0; i < 1000; i++) log.info('x'.repeat(100), { i });
    await root.flush();
    const lines = readFileSync(file, 'utf8').split('\n');
    expect(lines.pop()).toBe('');
    expect(lines).toHaveLength(1002);
    expect(lines.slice(0, 2).map((l) => JSON.parse(l))).toMatchObject([
      { msg: 'one', requestId: 'r1', phone: '+380*******67' },
      { msg: 'two', level: 'warn' },
    ]);
    expect(lines.slice(2).map((l) => (JSON.parse(l) as { i: number }).i)).toEqual(Array.from({ length: 1000 }, (_, i) => i));
  });

  it('masks a number by its own length: at most the country code and the last two digits, five hidden at least', () => {
    expect(maskPhone('+380501234567')).toBe('+380*******67');
    expect(maskPhone('380501234567')).toBe('380*******67');
    expect(maskPhone('+1 212 555 1234')).toBe('+1********34');
    // National numbers show no prefix: the first digits are an operator or area code.
    expect(maskPhone('0501234567')).toBe('********67');
    // Short numbers (security #8: a 7-digit number was shown whole).
    expect(maskPhone('1234567')).toBe('*****67');
    expect(maskPhone('+3801234')).toBe('+*****34');
    expect(maskPhone('123456')).toBe('******');
    expect(maskPhone('123')).toBe('***');
  });
});

describe('logger masks numbers wherever they stand (security #8)', () => {
  const logged = (msg: string, fields?: Record<string, unknown>) => {
    const lines: string[] = [];
    createLogger({ write: (l) => lines.push(l) }).info(msg, fields);
    return lines[0]!;
  };

  it('masks a number inside a longer token', () => {
    for (const token of ['x_380507654399', 'tel.380507654399', 'tel:+380507654399', 'id=380507654399&', 'abc380507654399def', 'ref_380507654399']) {
      const line = logged(`saw ${token}`, { token });
      expect(line, token).not.toMatch(/0507654|7654399/);
      expect(line, token).toContain('380*******99');
    }
  });

  it('never shows a 7-digit number whole, nor a short one inside a token', () => {
    const line = logged('local 7654399 and ext_7654399', { n: '765 43 99' });
    expect(line).not.toMatch(/7654399|765 43 99/);
    expect(line).toContain('*****99');
  });

  it('replaces a secret in its JSON-escaped form too', () => {
    const lines: string[] = [];
    createLogger({ secrets: ['se"cr\\et-key'], write: (l) => lines.push(l) }).info('oops', { value: 'the key is se"cr\\et-key' });
    expect(lines[0]).not.toContain('cr\\\\et');
    expect(JSON.parse(lines[0]!)).toMatchObject({ value: 'the key is [secret]' });
  });
});

describe('logger leaves what is not a phone number alone', () => {
  it('keeps timestamps, dates, UUIDs, request ids, IP addresses and plain figures readable', () => {
    const lines: string[] = [];
    const log = createLogger({ write: (l) => lines.push(l) });
    const id = '3f2a1234-5678-4abc-9def-123456789012';
    const fields = {
      id,
      upper: id.toUpperCase(),
      requestId: 'AbCdEfGhIjKlMnOpQrStUv',
      ip: '192.168.100.200',
      mapped: '::ffff:192.168.100.200',
      v6: '2001:db8::1234:5678',
      at: '2026-11-21T03:10:00.123Z',
      local: '2026-11-21 03:10:00+02:00',
      epochMs: 1763694600123,
      seconds: 0.12345678,
      ms: 12.3,
    };
    log.info('seen on 2026-11-21', fields);
    const line = JSON.parse(lines[0]!);
    expect(line.time).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/);
    expect(line).toMatchObject({ msg: 'seen on 2026-11-21', ...fields });
  });

  it('still masks numbers written the ways people write them', () => {
    const lines: string[] = [];
    const log = createLogger({ write: (l) => lines.push(l) });
    log.info('numbers', { a: '+380 (50) 123-45-67', b: 'call 0501234567 now', c: '380501234567' });
    expect(lines[0]).not.toMatch(/123-45-67|0501234567|380501234567/);
  });
});
