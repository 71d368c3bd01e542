// What the visitor typed or pasted → digits, country and a grouped display. Accepts every common
// form: +380 50 123 45 67, 050-123-45-67, (050) 123 4567, 00380501234567, 380501234567, and the
// "+380 0…" slip that the service's own widget also forgives. Only a typing aid and a light check;
// the relay parses authoritatively.
import { countries, type CountryPhone } from './countries';

export interface ParsedPhone {
  /** Typed with a country code (+…, 00…, or the country code without the plus). */
  international: boolean;
  /** The country whose calling code matched, or the chosen one for national input; null if unknown. */
  country: string | null;
  /** Country calling code, '' when unknown. */
  code: string;
  /** National significant number (without trunk prefix). */
  national: string;
  /** Everything after the plus when the calling code is unknown. */
  digits: string;
}

export type PhoneProblem = 'empty' | 'phone_too_short' | 'phone_too_long';

function group(digits: string, groups: readonly number[]): string {
  const out: string[] = [];
  let rest = digits;
  for (const size of groups) {
    if (!rest) break;
    out.push(rest.slice(0, size));
    rest = rest.slice(size);
  }
  // Longer than the pattern (a typo, or a variable-length plan): keep it, in threes.
  while (rest) {
    out.push(rest.slice(0, 3));
    rest = rest.slice(3);
  }
  return out.join(' ');
}

/** The table entry for a calling code, preferring the chosen country (+1 is US and CA, +7 is KZ and RU). */
function byCode(digits: string, preferred: string): [string, CountryPhone] | null {
  const chosen = countries[preferred];
  if (chosen && digits.startsWith(chosen.code)) return [preferred, chosen];
  let best: [string, CountryPhone] | null = null;
  for (const [iso, entry] of Object.entries(countries)) {
    if (digits.startsWith(entry.code) && (!best || entry.code.length > best[1].code.length)) best = [iso, entry];
  }
  return best;
}

/**
 * Drops the trunk prefix of national input. A `0` trunk goes at once (no national number of those
 * countries starts with 0), so grouping is right from the first digits; other trunks (8 in LT, KZ)
 * can also start a national number, so they go only once the number is longer than it could be.
 */
function withoutTrunk(national: string, entry: CountryPhone): string {
  if (!entry.trunk || !national.startsWith(entry.trunk)) return national;
  return entry.trunk === '0' || national.length > entry.max ? national.slice(entry.trunk.length) : national;
}

export function parsePhone(input: string, chosenCountry: string): ParsedPhone {
  const trimmed = input.trim();
  let digits = trimmed.replace(/\D/g, '');
  let international = trimmed.startsWith('+');
  if (!international && digits.startsWith('00')) {
    international = true;
    digits = digits.slice(2);
  }
  const chosen = countries[chosenCountry];
  // 380501234567 without the plus: the country code and a full national number.
  if (!international && chosen && digits.startsWith(chosen.code) && digits.length >= chosen.code.length + chosen.min && digits.length <= chosen.code.length + chosen.max && !(chosen.trunk && digits.startsWith(chosen.trunk))) {
    international = digits.length > chosen.max;
  }
  if (international) {
    const match = byCode(digits, chosenCountry);
    if (!match) return { international, country: null, code: '', national: '', digits };
    const [iso, entry] = match;
    // "+380 050…": the trunk zero typed after the country code.
    const national = entry.trunk === '0' ? digits.slice(entry.code.length).replace(/^0/, '') : digits.slice(entry.code.length);
    return { international, country: iso, code: entry.code, national, digits };
  }
  if (!chosen) return { international, country: chosenCountry || null, code: '', national: digits, digits };
  return { international, country: chosenCountry, code: chosen.code, national: withoutTrunk(digits, chosen), digits };
}

/** The input re-grouped as the visitor types, keeping their chosen form (international or national). */
export function formatTyping(input: string, chosenCountry: string): string {
  const trimmed = input.trim();
  if (!/\d/.test(trimmed)) return trimmed.startsWith('+') ? '+' : '';
  const parsed = parsePhone(trimmed, chosenCountry);
  const entry = parsed.country ? countries[parsed.country] : undefined;
  if (parsed.international) {
    const prefix = trimmed.startsWith('00') ? '00' : '+';
    if (!entry) return prefix + group(parsed.digits, [3]);
    return `${prefix}${entry.code}${parsed.national ? ' ' + group(parsed.national, entry.groups) : ''}`;
  }
  if (!entry) return group(parsed.digits, [3]);
  // National form: keep the trunk prefix the visitor typed, glued to the first group (050 123 45 67).
  const digits = parsed.digits;
  const trunk = digits.length > parsed.national.length ? digits.slice(0, digits.length - parsed.national.length) : '';
  const grouped = group(parsed.national, entry.groups);
  return trunk + grouped;
}

/** E.164 (`+380501234567`) when the calling code is known, else null. */
export function toE164(parsed: ParsedPhone): string | null {
  return parsed.code && parsed.national ? `+${parsed.code}${parsed.national}` : null;
}

/** `+380 50 123 45 67`: how the widget reads the number back to the visitor. */
export function formatInternational(parsed: ParsedPhone): string {
  const entry = parsed.country ? countries[parsed.country] : undefined;
  if (entry && parsed.code === entry.code) return `+${entry.code} ${group(parsed.national, entry.groups)}`;
  return parsed.international ? `+${group(parsed.digits, [3])}` : group(parsed.digits, [3]);
}

/** The light check: enough digits and not too many. Whether the number exists is the relay's call. */
export function checkPhone(parsed: ParsedPhone): PhoneProblem | null {
  if (!parsed.digits) return 'empty';
  const entry = parsed.country ? countries[parsed.country] : undefined;
  if (entry && parsed.code === entry.code) {
    if (parsed.national.length < entry.min) return 'phone_too_short';
    if (parsed.national.length > entry.max) return 'phone_too_long';
    return null;
  }
  // E.164 allows at most 15 digits; fewer than 6 is never a reachable number.
  const total = parsed.digits.length;
  return total < 6 ? 'phone_too_short' : total > 15 ? 'phone_too_long' : null;
}

/** The example number in the national form people write at home (UA: 050 123 45 67). */
export function exampleNumber(country: string): string | null {
  const entry = countries[country];
  return entry ? entry.trunk + group(entry.example, entry.groups) : null;
}
