// Destination policy, the first guard before anything else is spent on a request: parse what the
// visitor typed into E.164 with full metadata, then refuse countries we do not call, number types
// that cost money or reach no person (premium rate, shared cost, UAN, VoIP, pagers, personal
// numbers, voicemail access), toll-free numbers (their owner pays for every call: a widget must
// not be a way to flood someone's paid inbound line), and the project's own lines (never-call.ts).
// Each refusal has its own code, so the widget can say exactly what is wrong.
import { parsePhoneNumberFromString, type CountryCode, type NumberType } from 'libphonenumber-js/max';
import type { ErrorCode } from '../contract/contract.ts';
import { RelayError } from '../contract/errors.ts';

export interface PhonePolicy {
  defaultCountry: string;
  allowedCountries: readonly string[];
  /** Numbers refused whatever their type (never-call.ts), by international digits. */
  neverCall?: readonly NeverCall[];
}

/** A number that must never be called back, and the refusal that says why. */
export interface NeverCall {
  digits: string;
  code: ErrorCode;
  message: string;
}

export interface Destination {
  /** `+380501234567` */
  e164: string;
  /** `380501234567`: digits in international format, as the service expects them. */
  digits: string;
  country: string;
  /** Number type from the metadata (MOBILE, FIXED_LINE, …) or undefined when unknown. */
  type: NumberType | undefined;
  /** International format for reading back, e.g. `+380 50 123 4567`. */
  international: string;
}

const deniedTypes: Partial<Record<NonNullable<NumberType>, { code: ErrorCode; what: string }>> = {
  PREMIUM_RATE: { code: 'premium_number_not_allowed', what: 'a premium-rate number' },
  SHARED_COST: { code: 'shared_cost_number_not_allowed', what: 'a shared-cost number' },
  UAN: { code: 'uan_number_not_allowed', what: 'a company (UAN) number' },
  VOIP: { code: 'voip_number_not_allowed', what: 'an internet (VoIP) number' },
  PAGER: { code: 'pager_number_not_allowed', what: 'a pager number' },
  PERSONAL_NUMBER: { code: 'personal_number_not_allowed', what: 'a personal forwarding number' },
  TOLL_FREE: { code: 'toll_free_number_not_allowed', what: 'a toll-free number' },
  VOICEMAIL: { code: 'voicemail_number_not_allowed', what: 'a voicemail access number' },
};

/**
 * `00` international prefix → `+`, and the Ukrainian habit of keeping the trunk zero after the
 * country code (`+380 050…` → `+380 50…`), which Ringostat's own widget normalises too.
 */
export function normalizeTyped(text: string): string {
  let t = text.trim().replace(/[\s().\-‐-―]/g, '');
  if (t.startsWith('00')) t = '+' + t.slice(2);
  if (/^\+?3800/.test(t)) t = t.replace(/^(\+?380)0/, '$1');
  return t;
}

export function checkDestination(typed: string, requestedCountry: string | undefined, policy: PhonePolicy): Destination {
  const normalized = normalizeTyped(typed);
  if (!/^\+?\d+$/.test(normalized)) {
    throw new RelayError('invalid_phone', 'The phone number may contain only digits, spaces, dashes, brackets and a leading +.', { field: 'phone' });
  }
  if (normalized.replace('+', '').length < 6 || normalized.replace('+', '').length > 17) {
    throw new RelayError('invalid_phone', 'The phone number is too short or too long. Enter the full number with its area or operator code.', { field: 'phone' });
  }
  const country = (requestedCountry?.toUpperCase() ?? policy.defaultCountry) as CountryCode;
  // Digits without '+' that already start with an allowed country code (380501234567) are international.
  const candidates = normalized.startsWith('+') ? [normalized] : [normalized, '+' + normalized];
  let parsed = undefined as ReturnType<typeof parsePhoneNumberFromString>;
  let type: NumberType | undefined;
  for (const candidate of candidates) {
    const p = parsePhoneNumberFromString(candidate, { defaultCountry: country });
    if (!p) continue;
    // A number that has a type is valid (with types in the metadata, validity *is* having one):
    // asking for the type first spares matching the same patterns twice.
    const candidateType = p.getType();
    if (candidateType !== undefined || p.isValid()) {
      parsed = p;
      type = candidateType;
      break;
    }
  }
  if (!parsed?.country) {
    throw new RelayError('invalid_phone', 'This does not look like a valid phone number. Check the digits and the country code.', { field: 'phone' });
  }
  if (!policy.allowedCountries.includes(parsed.country)) {
    throw new RelayError('country_not_allowed', `We cannot call numbers in this country (${parsed.country}).`, { field: 'phone' });
  }
  const denied = type ? deniedTypes[type] : undefined;
  if (denied) throw new RelayError(denied.code, `We cannot call ${denied.what}. Please enter a mobile or landline number.`, { field: 'phone' });
  const digits = parsed.number.slice(1);
  // The sentence never repeats the number: a refusal is a public response.
  const never = policy.neverCall?.find((n) => n.digits === digits);
  if (never) throw new RelayError(never.code, never.message, { field: 'phone' });

  return {
    e164: parsed.number,
    digits,
    country: parsed.country,
    type,
    international: parsed.formatInternational(),
  };
}

/** `+380 50 123 4567` → `+380 50 *** **67`: the read-back that responses may carry. */
export function maskInternational(international: string): string {
  const digitsTotal = international.replace(/\D/g, '').length;
  let seen = 0;
  const [cc = ''] = international.split(' ');
  return international.replace(/\d/g, (d) => {
    seen++;
    return seen <= cc.replace(/\D/g, '').length + 2 || seen > digitsTotal - 2 ? d : '*';
  });
}
