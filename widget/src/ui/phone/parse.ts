// What the visitor typed or pasted → digits, country and a grouped display. Accepts every common
// form: +380 50 123 45 67, 050-123-45-67, (050) 123 4567, 00380501234567, 380501234567, and the
// "+380 0…" slip that the service's own widget also forgives. Only a typing aid and a light check;
// the relay parses authoritatively.
import { countries, type CountryPhone } from './countries.ts';

export interface ParsedPhone {
  /** Typed with a country code (+…, 00…, or the country code without the plus). */
  international: boolean;
  /** The country whose calling code matched, or the chosen one for national input; null if unknown. */
  country: string | null;
  /** Country calling code, '' when unknown. */
  code: string;
  /** National significant number (without trunk prefix). */
  national: string;
  /** All digits typed (after a 00 prefix). */
  digits: string;
  /** The trunk prefix the visitor typed before a national number ('' if none). */
  trunk: string;
}

export type PhoneProblem = 'empty' | 'phone_too_short' | 'phone_too_long';

/** Digits in the groups of the pattern; anything beyond it (a typo, a longer plan) in threes. */
function group(digits: string, groups: readonly number[]): string {
  const out: string[] = [];
  let i = 0;
  for (const size of groups) if (i < digits.length) out.push(digits.slice(i, (i += size)));
  while (i < digits.length) out.push(digits.slice(i, (i += 3)));
  return out.join(' ');
}

/**
 * The trunk prefix `digits` start with, if it is one to drop. A 0 goes at once (no national number
 * there starts with 0), so grouping is right from the first digits; an 8 (KZ, RU, LT's old trunk)
 * can start a national number, so it goes only once the number is longer than it could be.
 */
function trunkOf(digits: string, entry: CountryPhone): string {
  const first = digits[0] ?? '';
  return first && entry.trunk.includes(first) && (first === '0' || digits.length > entry.max) ? first : '';
}

export function parsePhone(input: string, chosen: string): ParsedPhone {
  const trimmed = input.trim();
  let digits = trimmed.replace(/\D/g, '');
  let international = trimmed[0] === '+';
  if (!international && digits.startsWith('00')) {
    international = true;
    digits = digits.slice(2);
  }
  const home = countries[chosen];
  // 380501234567 without the plus: the country code, then a national number (its trunk kept or
  // not: 380 050…) where the digits are too many to be a national number themselves.
  if (home && !international && digits.startsWith(home.code)) {
    const rest = digits.slice(home.code.length);
    const length = rest.length - trunkOf(rest, home).length;
    international = digits.length - trunkOf(digits, home).length > home.max && length >= home.min && length <= home.max;
  }
  if (international) {
    // The chosen country first (+1 is US and CA, +7 is KZ and RU), else the longest matching code.
    const [iso, entry] = (home && digits.startsWith(home.code) ? [chosen, home] : null) ??
      Object.entries(countries)
        .filter(([, c]) => digits.startsWith(c.code))
        .sort((a, b) => b[1].code.length - a[1].code.length)[0] ?? [null, null];
    if (!iso || !entry) return { international, country: null, code: '', national: '', digits, trunk: '' };
    // "+380 050…", "+7 8 912…": the trunk typed after the country code.
    const rest = digits.slice(entry.code.length);
    return { international, country: iso, code: entry.code, national: rest.slice(trunkOf(rest, entry).length), digits, trunk: '' };
  }
  if (!home) return { international, country: chosen || null, code: '', national: digits, digits, trunk: '' };
  const trunk = trunkOf(digits, home);
  return { international, country: chosen, code: home.code, national: digits.slice(trunk.length), digits, trunk };
}

/** The input re-grouped as the visitor types, keeping their chosen form (international or national). */
export function formatTyping(input: string, chosen: string): string {
  const trimmed = input.trim();
  const p = parsePhone(trimmed, chosen);
  const entry = p.country ? countries[p.country] : undefined;
  if (!p.digits) return trimmed[0] === '+' ? '+' : '';
  if (!p.international) return entry ? p.trunk + group(p.national, entry.groups) : group(p.digits, [3]);
  const prefix = trimmed.startsWith('00') ? '00' : '+';
  if (!entry) return prefix + group(p.digits, [3]);
  return `${prefix}${entry.code}${p.national ? ' ' + group(p.national, entry.groups) : ''}`;
}

/** E.164 (`+380501234567`) when the calling code is known, else null. */
export function toE164(p: ParsedPhone): string | null {
  return p.code && p.national ? `+${p.code}${p.national}` : null;
}

/** `+380 50 123 45 67`: how the widget reads the number back to the visitor. */
export function formatInternational(p: ParsedPhone): string {
  const entry = p.country ? countries[p.country] : undefined;
  return entry && p.code ? `+${p.code} ${group(p.national, entry.groups)}` : (p.international ? '+' : '') + group(p.digits, [3]);
}

/** The light check: enough digits and not too many. Whether the number exists is the relay's call. */
export function checkPhone(p: ParsedPhone): PhoneProblem | null {
  if (!p.digits) return 'empty';
  const entry = p.country ? countries[p.country] : undefined;
  // Without a table entry: E.164 allows at most 15 digits; fewer than 6 is never a reachable number.
  const [length, min, max] = entry && p.code ? [p.national.length, entry.min, entry.max] : [p.digits.length, 6, 15];
  return length < min ? 'phone_too_short' : length > max ? 'phone_too_long' : null;
}

/** The example number in the national form people write at home (UA: 050 123 45 67). */
export function exampleNumber(country: string): string | null {
  const entry = countries[country];
  return entry ? entry.trunk.slice(0, 1) + group(entry.example, entry.groups) : null;
}
