// Erasure finds a number in a visitor's free text (utm values, page paths) in every form people
// write it in, and leaves other numbers and digits alone.
import { describe, expect, it } from 'vitest';
import { mentionsOf, writtenForms } from '../../../server/src/number-data/number-mentions.ts';

describe('a number mentioned in visitor text', () => {
  it('knows the forms of a number with a trunk prefix, and of one without', () => {
    expect(writtenForms('+380501234567')).toEqual(
      new Set(['501234567', '0501234567', '380501234567', '3800501234567', '00380501234567', '011380501234567', '003800501234567', '0113800501234567']),
    );
    expect(writtenForms('+12025550123')).toEqual(new Set(['2025550123', '12025550123', '0012025550123', '01112025550123']));
  });

  const ua = mentionsOf('+380501234567').matches;
  it.each([
    '+380501234567',
    '380501234567',
    '00380501234567',
    '0501234567',
    '501234567',
    '050 123 45 67',
    '050-123-45-67',
    '050.123.45.67',
    '(050) 123-45-67',
    '+38 (050) 123 45 67',
    '+380 50 123 4567',
    '+38 050 123 4567',
    'call me on 050 123 45 67 please',
    'sofa-0501234567-sale',
    '/call/%2B380501234567',
    '/call/050%20123%2045%2067',
    'campaign 2024-050-123-45-67',
    'tel:+380501234567',
    '050–123–45–67',
  ])('finds %j', (text) => {
    expect(ua(text)).toBe(true);
  });

  it.each(['', 'google', 'newsletter-2024', '0501234568', '10501234567', '05012345670', '+380671234567', '050 123 45 6', 'order 501234567890', '/p/5012345678'])(
    'leaves %j',
    (text) => {
      expect(ua(text)).toBe(false);
    },
  );

  it('names the digits every mention holds in order: what a store filters by first', () => {
    expect(mentionsOf('+380501234567').digits).toBe('501234567');
  });

  it('finds a number of a plan without a trunk prefix in its usual forms', () => {
    const us = mentionsOf('+12025550123').matches;
    for (const text of ['(202) 555-0123', '202.555.0123', '+1 202 555 0123', '1-202-555-0123']) expect(us(text), text).toBe(true);
    expect(us('202 555 0124')).toBe(false);
  });
});
