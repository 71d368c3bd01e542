// The light phone handling in the browser: grouping as the visitor types, every common pasted form,
// the read-back, and the light length check (the relay decides what is valid).
import { describe, expect, test } from 'vitest';
import { checkDestination } from '../../server/src/phone/phone-policy.ts';
import { countries } from '../../widget/src/ui/phone/countries.ts';
import { checkPhone, exampleNumber, formatInternational, formatTyping, parsePhone, toE164 } from '../../widget/src/ui/phone/parse.ts';
import { reformat } from '../../widget/src/ui/PhoneField.tsx';

describe('pasting any common form of a Ukrainian mobile number', () => {
  test.each([
    '+380 50 123 45 67',
    '+380501234567',
    '+380 (50) 123-45-67',
    '050 123 45 67',
    '0501234567',
    '(050) 123-45-67',
    '050-123-45-67',
    '00380501234567',
    '00 380 50 123 45 67',
    '380501234567',
    '+380 050 123 45 67',
    '  +38 (050) 123 45 67 ',
  ])('%j → +380501234567', (input) => {
    const parsed = parsePhone(input, 'UA');
    expect(toE164(parsed)).toBe('+380501234567');
    expect(formatInternational(parsed)).toBe('+380 50 123 45 67');
    expect(checkPhone(parsed)).toBeNull();
  });
});

describe('grouping as you type', () => {
  test('national form keeps the trunk zero glued to the first group', () => {
    const typed = '0501234567';
    const steps = [...typed].map((_, i) => formatTyping(typed.slice(0, i + 1), 'UA'));
    expect(steps).toEqual(['0', '05', '050', '050 1', '050 12', '050 123', '050 123 4', '050 123 45', '050 123 45 6', '050 123 45 67']);
  });

  test('international form, including a pasted one with separators', () => {
    expect(formatTyping('+', 'UA')).toBe('+');
    expect(formatTyping('+38', 'UA')).toBe('+38');
    expect(formatTyping('+3805', 'UA')).toBe('+380 5');
    expect(formatTyping('+380 (50) 123-45-67', 'UA')).toBe('+380 50 123 45 67');
    expect(formatTyping('+48512345678', 'UA')).toBe('+48 512 345 678');
    expect(formatTyping('0048 512 345 678', 'UA')).toBe('0048 512 345 678');
  });

  test('other countries group the way people there write numbers', () => {
    expect(formatTyping('512345678', 'PL')).toBe('512 345 678');
    expect(formatTyping('2015550123', 'US')).toBe('201 555 0123');
    expect(formatTyping('015123456789', 'DE')).toBe('0151 2345 6789');
    expect(formatTyping('07400123456', 'GB')).toBe('07400 123456');
  });

  test('letters and stray symbols are dropped', () => {
    expect(formatTyping('050abc123', 'UA')).toBe('050 123');
    expect(formatTyping('tel', 'UA')).toBe('');
  });
});

describe('countries', () => {
  test('a +1 number keeps the chosen one of US and Canada, +7 of KZ', () => {
    expect(parsePhone('+1 506 234 5678', 'CA').country).toBe('CA');
    expect(parsePhone('+1 201 555 0123', 'UA').country).toBe('US');
    expect(parsePhone('+7 771 000 99 98', 'UA').country).toBe('KZ');
  });

  test('the longest calling code wins (+380 is not +38…)', () => {
    expect(parsePhone('+37061234567', 'UA')).toMatchObject({ country: 'LT', code: '370', national: '61234567' });
  });

  test('a trunk other than 0 is dropped only once the number is complete (LT 8)', () => {
    expect(parsePhone('861234567', 'LT')).toMatchObject({ trunk: '8', national: '61234567' });
    expect(parsePhone('8612', 'LT')).toMatchObject({ trunk: '', national: '8612' });
  });

  test('an unknown calling code still goes to the relay as typed', () => {
    const parsed = parsePhone('+999 1234 5678', 'UA');
    expect(parsed.country).toBeNull();
    expect(toE164(parsed)).toBeNull();
    expect(checkPhone(parsed)).toBeNull();
    expect(formatInternational(parsed)).toBe('+999 123 456 78');
  });

  test('examples in the national form people write at home', () => {
    expect(exampleNumber('UA')).toBe('050 123 45 67');
    expect(exampleNumber('PL')).toBe('512 345 678');
    expect(exampleNumber('LT')).toBe('0612 34567');
    expect(exampleNumber('ZZ')).toBeNull();
  });
});

describe('the light check', () => {
  test.each([
    ['', 'UA', 'empty'],
    ['050 123', 'UA', 'phone_too_short'],
    ['050 123 45 678', 'UA', 'phone_too_long'],
    ['+380 50 123 45 6', 'UA', 'phone_too_short'],
    ['12345', 'ZZ', 'phone_too_short'],
    ['1234567890123456', 'ZZ', 'phone_too_long'],
  ])('%j in %s → %s', (input, country, problem) => {
    expect(checkPhone(parsePhone(input, country))).toBe(problem);
  });
});

// The widget refuses before asking the relay, so what it refuses must be what the relay would
// refuse too: each country's example number, written in every way the relay reads as that same
// number (with a trunk 0 or 8 at home, the country code with or without + or 00, the trunk kept after
// it), passes the light check and goes out as the number the relay reads.
describe('the light check never refuses a number the relay takes', () => {
  const all = Object.keys(countries);
  // (The country code without a + whose digits are no more than a national number may have, AT's
  // 43 664…, stays a national number: only full metadata can tell them apart, as the relay does.)
  const cases = Object.entries(countries).flatMap(([iso, { code, example, max }]) =>
    ['', '0', '8'].flatMap((trunk) =>
      [trunk + example, `+${code} ${trunk}${example}`, `00${code} ${trunk}${example}`, ...((code + trunk + example).length > max ? [`${code} ${trunk}${example}`] : [])].map(
        (typed) => [iso, typed, `+${code}${example}`] as const,
      ),
    ),
  );
  const relayReads = (typed: string, iso: string) => {
    try {
      return checkDestination(typed, iso, { defaultCountry: iso, allowedCountries: all }).e164;
    } catch {
      return null;
    }
  };
  const taken = cases.filter(([iso, typed, e164]) => relayReads(typed, iso) === e164);

  test('the relay reads the same number in the forms this test tries (LT with either trunk)', () => {
    expect(taken.length).toBeGreaterThan(Object.keys(countries).length * 4);
    expect(taken.filter(([iso]) => iso === 'LT').map(([, typed]) => typed)).toEqual(expect.arrayContaining(['061234567', '861234567', '+370 861234567', '370 061234567']));
  });

  test.each(taken)('%s %j → %s', (iso, typed, e164) => {
    const parsed = parsePhone(typed, iso);
    expect(checkPhone(parsed)).toBeNull();
    expect(toE164(parsed)).toBe(e164);
  });
});

describe('caret and deletion while reformatting', () => {
  test('typing in the middle keeps the caret after the typed digit', () => {
    // "050 12|3" → the visitor types 9 at the caret (after "050 12").
    const result = reformat('050 1293', 7, '050 123', false, 'UA');
    expect(result.value).toBe('050 129 3');
    expect(result.caret).toBe(7);
  });

  test('backspace right after a separator deletes the digit before it', () => {
    // "050 123 |45" with backspace: the browser removed only the space.
    const result = reformat('050 12345', 7, '050 123 45', true, 'UA');
    expect(result.value).toBe('050 124 5');
    expect(result.caret).toBe(6);
  });
});
