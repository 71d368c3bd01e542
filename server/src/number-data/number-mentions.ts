// A number written into a visitor's free text: a utm value, a page's path, anything a visitor's
// browser sends that is kept as it came (the lead report keeps such values for 400 days). Erasure
// looks for the number there in the forms people write it in, not only as E.164:
//   +380501234567  380501234567  00380501234567  0501234567  501234567  +38 (050) 123-45-67
//   050.123.45.67  050 123 45 67  %2B380501234567 (a percent-encoded path)
// A mention is a run of digit groups joined only by separators (spaces, dots, dashes, brackets,
// slashes, plus signs), some consecutive groups of which spell one of the number's forms. A digit
// next to the form (an order id that happens to contain the number's digits) is another number.
import { parsePhoneNumberFromString } from 'libphonenumber-js/max';

/** What may stand between the digit groups of one written number. */
const SEPARATOR_RUN = /^[\s.\-‐-―()[\]/\\+_]{1,4}$/u;
const DIGIT_GROUP = /\d+/g;
const PERCENT_BYTE = /%([0-9a-f]{2})/gi;
const NOT_DIGITS = /\D/g;

/** The number's forms as digits only: with and without its country code, its trunk prefix, an international prefix. */
export function writtenForms(e164: string): ReadonlySet<string> {
  const parsed = parsePhoneNumberFromString(e164);
  if (!parsed) return new Set([e164.replace(/\D/g, '')]);
  const code = parsed.countryCallingCode;
  const national = parsed.nationalNumber;
  // The national form with its trunk prefix (0 in most of Europe, 8 in Russia, none in North America).
  const trunked = parsed.formatNational().replace(/\D/g, '');
  const forms = new Set([national, trunked, `${code}${national}`, `${code}${trunked}`]);
  for (const form of [...forms].filter((f) => f.startsWith(code))) {
    forms.add(`00${form}`);
    forms.add(`011${form}`);
  }
  return forms;
}

function decodePercents(text: string): string {
  return text.replace(PERCENT_BYTE, (_, hex: string) => String.fromCharCode(Number.parseInt(hex, 16)));
}

function spellsForm(text: string, forms: ReadonlySet<string>, longest: number): boolean {
  const groups = [...text.matchAll(DIGIT_GROUP)];
  for (let i = 0; i < groups.length; i++) {
    let digits = '';
    for (let j = i; j < groups.length; j++) {
      const group = groups[j]!;
      if (j > i) {
        const previous = groups[j - 1]!;
        if (!SEPARATOR_RUN.test(text.slice(previous.index + previous[0].length, group.index))) break;
      }
      digits += group[0];
      if (digits.length > longest) break;
      if (forms.has(digits)) return true;
    }
  }
  return false;
}

/**
 * A test for text that mentions `e164` in any of its written forms; `digits`: its national number,
 * which every mention holds in order (what a store may filter by before asking `matches`).
 */
export function mentionsOf(e164: string): { digits: string; matches: (text: string) => boolean } {
  const forms = writtenForms(e164);
  const longest = Math.max(...[...forms].map((f) => f.length));
  // Every form holds the national number, and a mention's digits are consecutive once the rest is
  // taken out: text without it is passed over at once (a flood's values, read by the million).
  const national = [...forms].reduce((a, b) => (a.length <= b.length ? a : b));
  const matches = (text: string): boolean => {
    if (!text.replace(NOT_DIGITS, '').includes(national) && !(text.includes('%') && decodePercents(text).replace(NOT_DIGITS, '').includes(national))) return false;
    if (spellsForm(text, forms, longest)) return true;
    const decoded = text.includes('%') ? decodePercents(text) : text;
    return decoded !== text && spellsForm(decoded, forms, longest);
  };
  return { digits: national, matches };
}
