// Phone numbers and secrets in log lines. maskPhone is what callers use on purpose; maskLine is the
// logger's safety net over every finished line, whatever a caller passed. Security issue #8: a
// number was logged whole when it stood inside a longer token (`x_380507654399`, `tel.380…`), and
// a 7-digit number was shown whole because the mask kept 7 digits whatever the length.
import { getCountries, getCountryCallingCode } from 'libphonenumber-js/max';

/** Digits a mask always hides: 10^5 candidates per masked number, at the least. */
const MIN_HIDDEN = 5;

/** Country calling codes (1 to 3 digits). They form a prefix code, so at most one fits a number. */
let callingCodes: Set<string> | undefined;
function callingCodeOf(digits: string): string {
  callingCodes ??= new Set(getCountries().map((country) => getCountryCallingCode(country)));
  for (let length = 1; length <= 3; length++) if (callingCodes.has(digits.slice(0, length))) return digits.slice(0, length);
  return '';
}

/**
 * `+380501234567` → `+380*******67`: at most the country code and the last two digits, and never
 * fewer than five digits hidden (a 7-digit number shows only its last two, a 6-digit one nothing).
 * The country code is shown only for a number that is surely international: written with `+`, or
 * 11+ digits not starting with 0 (the service's E.164 without `+`; national numbers are shorter or
 * start with a trunk 0).
 */
export function maskPhone(phone: string): string {
  const digits = phone.replace(/\D/g, '');
  const n = digits.length;
  const plus = phone.trimStart().startsWith('+');
  const international = plus || (n >= 11 && digits.charCodeAt(0) !== 48 /* 0 */);
  const last = n - 2 >= MIN_HIDDEN ? 2 : 0;
  const code = international ? callingCodeOf(digits) : '';
  const head = n - last - code.length >= MIN_HIDDEN ? code.length : 0;
  return (plus ? '+' : '') + digits.slice(0, head) + '*'.repeat(n - head - last) + digits.slice(n - last);
}

// What is left readable although it is made of digits: ISO dates and times (the line's own `time`
// among them), UUIDs, and epoch milliseconds (13 digits from 1: no E.164 number is, since country
// code 1 numbers have 11). Request ids are letters and IP addresses have at most 3 digits between
// their dots or 4 hex digits between colons, so neither can look like a number below.
const readable =
  String.raw`(?<!\d)(?:19|20)\d\d-(?:0[1-9]|1[0-2])-(?:0[1-9]|[12]\d|3[01])(?:[T ]\d\d:\d\d(?::\d\d(?:\.\d+)?)?(?:Z|[+-]\d\d:?\d\d)?)?(?!\d)` +
  String.raw`|(?<![\dA-Fa-f])[\dA-Fa-f]{8}-[\dA-Fa-f]{4}-[\dA-Fa-f]{4}-[\dA-Fa-f]{4}-[\dA-Fa-f]{12}(?![\dA-Fa-f])` +
  String.raw`|(?<!\d)1\d{12}(?!\d)`;
// A phone-shaped run: 7+ digits with the separators people type, wherever it stands (after a
// letter, `_`, `.` or `=` too), except the fraction of a decimal number (`0.12345678`).
const phoneRun = String.raw`(?<!\d|\d\.)\+?\d(?:[ ()-]{0,2}\d){6,}`;
const digitsPattern = new RegExp(`(${readable})|${phoneRun}`, 'g');

/** A line with every configured secret replaced and every phone-shaped run masked. */
export function maskLine(line: string, secrets: readonly string[]): string {
  let out = line;
  for (const secret of secrets) if (out.includes(secret)) out = out.split(secret).join('[secret]');
  return out.replace(digitsPattern, (run: string, kept: string | undefined) => (kept === undefined ? maskPhone(run) : run));
}

/**
 * The forms a secret takes in a JSON line: as it is and, when JSON escapes some of its characters
 * (a quote, a backslash), as escaped. Secrets shorter than 4 characters are not searched for: they
 * would blank out ordinary text.
 */
export function secretForms(secrets: readonly string[]): string[] {
  const forms = new Set<string>();
  for (const secret of secrets) {
    if (secret.length < 4) continue;
    forms.add(secret);
    forms.add(JSON.stringify(secret).slice(1, -1));
  }
  // Longer first, so a secret that contains another is replaced whole.
  return [...forms].sort((a, b) => b.length - a.length);
}
