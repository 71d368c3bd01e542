import { describe, expect, it } from 'vitest';
import { createLogger, maskPhone } from '../../server/src/log.ts';

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
    expect(text).toContain('38050*****67');
  });

  it('writes the lines of one event-loop turn to its sink together, in order, each line masked', async () => {
    const chunks: string[] = [];
    const log = createLogger({ sink: { write: (c) => chunks.push(c) } }).child({ requestId: 'r1' });
    log.info('one', { phone: '+380501234567' });
    log.warn('two');
    expect(chunks).toEqual([]);
    await new Promise((resolve) => setImmediate(resolve));
    expect(chunks).toHaveLength(1);
    const lines = chunks[0]!.split('\n');
    expect(lines.pop()).toBe('');
    expect(lines.map((l) => JSON.parse(l))).toMatchObject([{ msg: 'one', requestId: 'r1', phone: '+38050*****67' }, { msg: 'two', level: 'warn' }]);

    // A flood does not pile up: a large batch is written at once.
    for (let i = 0; i < 1000; i++) log.info('x'.repeat(100));
    expect(chunks.length).toBeGreaterThan(1);
    await new Promise((resolve) => setImmediate(resolve));
    expect(chunks.join('').split('\n').filter(Boolean)).toHaveLength(1002);
  });

  it('masks numbers to their country/operator code and last two digits', () => {
    expect(maskPhone('+380501234567')).toBe('+38050*****67');
    expect(maskPhone('380501234567')).toBe('38050*****67');
    expect(maskPhone('123')).toBe('***');
  });
});

describe('logger leaves what is not a phone number alone', () => {
  it('keeps timestamps, dates, UUIDs and IP addresses readable', () => {
    const lines: string[] = [];
    const log = createLogger({ write: (l) => lines.push(l) });
    const id = '3f2a1234-5678-4abc-9def-123456789012';
    log.info('seen on 2026-11-21', { id, ip: '192.168.100.200', v6: '2001:db8::1234:5678' });
    const line = JSON.parse(lines[0]!);
    expect(line.time).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/);
    expect(line).toMatchObject({ msg: 'seen on 2026-11-21', id, ip: '192.168.100.200', v6: '2001:db8::1234:5678' });
  });

  it('still masks numbers written the ways people write them', () => {
    const lines: string[] = [];
    const log = createLogger({ write: (l) => lines.push(l) });
    log.info('numbers', { a: '+380 (50) 123-45-67', b: 'call 0501234567 now', c: '380501234567' });
    expect(lines[0]).not.toMatch(/123-45-67|0501234567|380501234567/);
  });
});
