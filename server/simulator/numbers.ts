// Phone numbers as the service accepts them.
// A phone number is digits in international format without '+' (`380501234567`); a leading '+' is
// accepted too. The service is strict where a relay bug would hide: a national number (`0501234567`)
// or one with a trunk zero after the country code (`3800501234567`) is refused, because libphonenumber
// would quietly "fix" the latter and so must not be the judge alone.
import { parsePhoneNumberFromString } from 'libphonenumber-js';

const DIGITS = /^\+?[1-9]\d{6,14}$/;

/** Digits of a valid international number (no '+'), or null. */
export function internationalNumber(text: string): string | null {
  const trimmed = text.trim();
  if (!DIGITS.test(trimmed)) return null;
  const digits = trimmed.replace(/^\+/, '');
  const parsed = parsePhoneNumberFromString(`+${digits}`);
  if (!parsed?.isPossible() || parsed.number !== `+${digits}`) return null;
  return digits;
}

/** `380501234567` -> `38050*****67`: logs never carry a full number. */
export function maskNumber(text: string): string {
  if (!/^\+?\d{5,}$/.test(text)) return text.length > 2 ? `${text.slice(0, 2)}***` : '***';
  return `${text.slice(0, 5)}${'*'.repeat(Math.max(0, text.length - 7))}${text.slice(-2)}`;
}
