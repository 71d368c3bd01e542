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
  const international = plus || (n >= 11 && digits.charCodeAt(0) !== 48) /* 0 */;
  const last = n - 2 >= MIN_HIDDEN ? 2 : 0;
  const code = international ? callingCodeOf(digits) : '';
  const head = n - last - code.length >= MIN_HIDDEN ? code.length : 0;
  return (plus ? '+' : '') + digits.slice(0, head) + '*'.repeat(n - head - last) + digits.slice(n - last);
}

// A phone-shaped run: 7+ digits with the separators people type, wherever it stands (after a
// letter, `_`, `.` or `=` too). One simple pattern, so the scan over each line stays cheap; what is
// readable although made of digits is told apart only where a run is found.
const phoneRun = /\+?\d(?:[ ()-]{0,2}\d){6,}/g;
// Readable although made of digits: ISO dates and times (the line's own `time` among them),
// epoch milliseconds (13 digits from 1: no E.164 number is, as country code 1 numbers have 11),
// UUIDs, and the fraction of a decimal number (`0.12345678`). Request ids are letters, and IP
// addresses have at most 3 digits between dots or 4 hex digits between colons: no run at all.
const isoDateTime = /(?:19|20)\d\d-(?:0[1-9]|1[0-2])-(?:0[1-9]|[12]\d|3[01])(?:[T ]\d\d:\d\d(?::\d\d(?:\.\d+)?)?(?:Z|[+-]\d\d:?\d\d)?)?(?!\d)/y;
const epochMs = /1\d{12}(?!\d)/y;
const uuid = /[\dA-Fa-f]{8}-[\dA-Fa-f]{4}-[\dA-Fa-f]{4}-[\dA-Fa-f]{4}-[\dA-Fa-f]{12}(?![\dA-Fa-f])/y;

const isDigit = (c: number) => c >= 48 && c <= 57;
const isHex = (c: number) => isDigit(c) || (c >= 65 && c <= 70) || (c >= 97 && c <= 102);

/** Where the readable token that the run at `start` belongs to ends, or -1 when it is none. */
function readableEnd(line: string, start: number): number {
  const before = line.charCodeAt(start - 1);
  if (before === 46 /* . */ && isDigit(line.charCodeAt(start - 2))) return phoneRun.lastIndex; // a fraction
  for (const pattern of [isoDateTime, epochMs]) {
    pattern.lastIndex = start;
    if (pattern.test(line)) return pattern.lastIndex;
  }
  // A UUID starts at most 35 characters before a run inside it, right after a non-hex character.
  let from = start;
  while (from > 0 && start - from < 36 && (isHex(line.charCodeAt(from - 1)) || line.charCodeAt(from - 1) === 45)) from--;
  for (; from <= start; from++) {
    if (from > 0 && isHex(line.charCodeAt(from - 1))) continue;
    uuid.lastIndex = from;
    if (uuid.test(line)) return uuid.lastIndex;
  }
  return -1;
}

/** A line with every configured secret replaced and every phone-shaped run masked. */
export function maskLine(line: string, secrets: readonly string[]): string {
  let text = line;
  for (const secret of secrets) if (text.includes(secret)) text = text.split(secret).join('[secret]');
  let out = '';
  let copied = 0;
  phoneRun.lastIndex = 0;
  for (let run = phoneRun.exec(text); run !== null; run = phoneRun.exec(text)) {
    const end = readableEnd(text, run.index);
    if (end >= 0) {
      phoneRun.lastIndex = Math.max(end, run.index + 1);
      continue;
    }
    out += text.slice(copied, run.index) + maskPhone(run[0]);
    copied = phoneRun.lastIndex;
  }
  return copied === 0 ? text : out + text.slice(copied);
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
