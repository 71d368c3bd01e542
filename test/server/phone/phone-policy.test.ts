import { describe, expect, it } from 'vitest';
import { checkDestination, maskInternational, normalizeTyped } from '../../../server/src/phone/phone-policy.ts';
import { neverCallOf, settingDigits } from '../../../server/src/phone/never-call.ts';
import { RelayError } from '../../../server/src/contract/errors.ts';

const ua = { defaultCountry: 'UA', allowedCountries: ['UA', 'PL', 'DE', 'GB'] };

function refusal(typed: string, country?: string, policy = ua): string {
  try {
    checkDestination(typed, country, policy);
  } catch (err) {
    expect(err).toBeInstanceOf(RelayError);
    expect((err as RelayError).options.field).toBe('phone');
    return (err as RelayError).code;
  }
  throw new Error(`expected ${typed} to be refused`);
}

describe('checkDestination', () => {
  it.each([
    ['050 123 45 67', '380501234567'],
    ['0501234567', '380501234567'],
    ['(050) 123-45-67', '380501234567'],
    ['+380 50 123 45 67', '380501234567'],
    ['+380 050 123 45 67', '380501234567'],
    ['00380501234567', '380501234567'],
    ['380501234567', '380501234567'],
    ['+48 601 234 567', '48601234567'],
  ])('parses %j as %s', (typed, digits) => {
    expect(checkDestination(typed, undefined, ua).digits).toBe(digits);
  });

  it("reads national numbers in the visitor's chosen country", () => {
    expect(checkDestination('601 234 567', 'PL', ua).e164).toBe('+48601234567');
    expect(checkDestination('030 123456', 'de', ua).country).toBe('DE');
  });

  // Lithuania moved its trunk from 8 to 0 (libphonenumber's national format is now "(0-612) 34567");
  // both are still typed, at home and after the country code.
  it.each(['0 612 34567', '8 612 34567', '061234567', '+370 0 612 34567', '+370 8 612 34567', '370 0 612 34567', '00370 612 34567'])(
    'reads the Lithuanian %j as +37061234567',
    (typed) => {
      expect(checkDestination(typed, 'LT', { defaultCountry: 'LT', allowedCountries: ['LT'] })).toMatchObject({ e164: '+37061234567', country: 'LT' });
    },
  );

  it('refuses what is not a number, and numbers in countries not allowed', () => {
    expect(refusal('call me')).toBe('invalid_phone');
    expect(refusal('050 12')).toBe('invalid_phone');
    expect(refusal('+1 202 555 0123')).toBe('country_not_allowed');
    expect(refusal('+48 601 234 567', undefined, { defaultCountry: 'UA', allowedCountries: ['UA'] })).toBe('country_not_allowed');
  });

  // Example numbers from libphonenumber's metadata (GB's published examples), typed by the library itself.
  it.each([
    ['+44 901 234 5678', 'premium_number_not_allowed'],
    ['+48 801 123 456', 'shared_cost_number_not_allowed'],
    ['+44 55 1234 5678', 'uan_number_not_allowed'],
    ['+44 56 1234 5678', 'voip_number_not_allowed'],
    ['+380 89 123 4567', 'voip_number_not_allowed'],
    ['+44 7640 123456', 'pager_number_not_allowed'],
    ['+44 70 1234 5678', 'personal_number_not_allowed'],
    // Toll-free: whoever owns the line pays for each call, so the widget must not flood it.
    ['+44 800 123 4567', 'toll_free_number_not_allowed'],
    ['+380 800 50 1234', 'toll_free_number_not_allowed'],
    ['+48 800 123 456', 'toll_free_number_not_allowed'],
    ['+49 800 1234567', 'toll_free_number_not_allowed'],
    ['+49 160 131 234 567', 'voicemail_number_not_allowed'],
  ])('refuses %s with %s', (number, code) => {
    expect(refusal(number, undefined, { defaultCountry: 'UA', allowedCountries: ['GB', 'PL', 'UA', 'DE'] })).toBe(code);
  });

  it('allows mobile and landline numbers', () => {
    expect(checkDestination('+44 7400 123456', undefined, ua).type).toBe('MOBILE');
    expect(checkDestination('+44 20 7946 0958', undefined, ua).type).toBe('FIXED_LINE');
  });

  it("refuses the project's own lines, however they are typed, without repeating the number", () => {
    const policy = {
      ...ua,
      neverCall: neverCallOf({ defaultCountry: 'UA', callback: { caller: '380441112233', callerType: 'default' }, route: { fallback: '+380 67 123 45 67' } }),
    };
    for (const typed of ['+380 44 111 22 33', '044 111 22 33', '00380441112233']) expect(refusal(typed, undefined, policy)).toBe('office_number_not_allowed');
    expect(refusal('067 123 45 67', undefined, policy)).toBe('fallback_number_not_allowed');
    let message = '';
    try {
      checkDestination('0441112233', undefined, policy);
    } catch (err) {
      message = (err as RelayError).message;
    }
    expect(message).toMatch(/our own office number/);
    expect(message).not.toMatch(/\d{3}/);
    expect(checkDestination('+380 44 111 22 34', undefined, policy).digits).toBe('380441112234');
  });

  it('compares only settings that are phone numbers: a SIP login or a scheme is no number', () => {
    expect(settingDigits('agent01', 'UA')).toBeNull();
    expect(settingDigits('0441112233', 'UA')).toBe('380441112233');
    expect(neverCallOf({ defaultCountry: 'UA', callback: { caller: '380441112233', callerType: 'scheme' }, route: { fallback: 'sip-fallback' } })).toEqual([]);
  });

  it('normalises typing habits without guessing digits', () => {
    expect(normalizeTyped(' +380 (050) 123-45-67 ')).toBe('+380501234567');
    expect(normalizeTyped('00 48 601 234 567')).toBe('+48601234567');
  });

  it('masks the read-back', () => {
    expect(maskInternational('+380 50 123 4567')).toBe('+380 50 *** **67');
  });
});
