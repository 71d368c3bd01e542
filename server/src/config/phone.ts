// Which phone numbers the relay takes: DEFAULT_COUNTRY for numbers written without a country code,
// ALLOWED_COUNTRIES for where it may call (default: the default country alone).
import type { EnvReader } from './env.ts';

export interface PhoneSettings {
  defaultCountry: string;
  allowedCountries: readonly string[];
}

const COUNTRY_EXPECTED = 'an ISO 3166-1 alpha-2 country code such as UA';
const asCountry = (code: string): string | null => (/^[A-Za-z]{2}$/.test(code) ? code.toUpperCase() : null);

export function readPhone(env: EnvReader): PhoneSettings {
  const defaultCountry = env.text('DEFAULT_COUNTRY', { pattern: /^[A-Za-z]{2}$/, expected: COUNTRY_EXPECTED })?.toUpperCase() ?? 'UA';
  const allowedCountries = env.list('ALLOWED_COUNTRIES', asCountry, COUNTRY_EXPECTED) ?? [defaultCountry];
  return { defaultCountry, allowedCountries };
}
