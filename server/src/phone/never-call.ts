// Numbers a callback must never ring, whatever their type: the project's own lines. CALLBACK_CALLER
// (and each department's caller, DEPARTMENTS_FILE) is an office line the service rings first, so a
// callback to it makes the office call itself (two lines busy, a call billed, and a loop if the line
// forwards), whichever department the visitor picked; ROUTE_FALLBACK is where the
// routing webhook sends calls nobody else takes. Each may also be a SIP login or a scheme id:
// only a setting that reads as a phone number is compared, by its international digits.
import { parsePhoneNumberFromString, type CountryCode } from 'libphonenumber-js/max';
import { normalizeTyped, type NeverCall } from './phone-policy.ts';

export interface OwnLines {
  defaultCountry: string;
  callback?: { caller: string; callerType: 'default' | 'scheme' };
  /** Every department's caller: each is an office line too. */
  departments?: ReadonlyArray<{ caller: string; callerType: 'default' | 'scheme' }>;
  route?: { fallback: string | null };
}

const OFFICE_LINE = 'This is our own office number, so we cannot call it back. Please enter your own phone number.';
const OWN_LINE = 'This is one of our own numbers, so we cannot call it back. Please enter your own phone number.';

/** International digits of a setting that is a phone number (national forms in DEFAULT_COUNTRY), or null. */
export function settingDigits(value: string, defaultCountry: string): string | null {
  const t = normalizeTyped(value);
  if (!/^\+?\d{6,17}$/.test(t)) return null;
  for (const candidate of t.startsWith('+') ? [t] : ['+' + t, t]) {
    const p = parsePhoneNumberFromString(candidate, { defaultCountry: defaultCountry as CountryCode });
    if (p?.isValid()) return p.number.slice(1);
  }
  // Not in the metadata (a test line, a new range): its digits as written still match a visitor
  // who types them the same way in international form.
  return t.startsWith('+') || t.length > 10 ? t.replace('+', '') : null;
}

export function neverCallOf(lines: OwnLines): NeverCall[] {
  const out: NeverCall[] = [];
  for (const line of [lines.callback, ...(lines.departments ?? [])]) {
    // A scheme id or SIP login is not a number a visitor can type.
    const digits = line?.callerType === 'default' ? settingDigits(line.caller, lines.defaultCountry) : null;
    if (digits && !out.some((n) => n.digits === digits)) out.push({ digits, code: 'office_number_not_allowed', message: OFFICE_LINE });
  }
  const fallback = lines.route?.fallback;
  const fallbackDigits = fallback ? settingDigits(fallback, lines.defaultCountry) : null;
  if (fallbackDigits) out.push({ digits: fallbackDigits, code: 'fallback_number_not_allowed', message: OWN_LINE });
  return out;
}
