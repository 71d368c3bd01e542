// The one rule for text a visitor's browser sent (utm values, client id, locale, department, page,
// user agent): kept and shown as ONE line of plain text, so a value cannot write a line that looks like
// a message's own, reorder what follows it, or carry a terminal sequence. Applied before anything is
// stored and again by every channel that shows a stored value. What is taken out: visitor-text/README.md.

const BREAKS = /[\t\n\v\f\r\x85\u2028\u2029]+/g;
// biome-ignore lint/suspicious/noControlCharactersInRegex: control characters are what this rule removes
const INVISIBLE = /[\0-\x08\x0e-\x1f\x7f-\x84\x86-\x9f\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069]/g;
const LONE_SURROGATE = /[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/g;
/** Anything the rule changes: most values have none of it and are only trimmed and cut. */
// biome-ignore lint/suspicious/noControlCharactersInRegex: control characters are what this rule removes
const UNCLEAN = /[\0-\x1f\x7f-\x9f\u061c\u200e\u200f\u2028\u2029\u202a-\u202e\u2066-\u2069\ud800-\udfff]/;

/** `value` as one clean line of at most `max` characters (see above); '' when nothing visible is left. */
export function oneLine(value: string, max: number): string {
  let text = UNCLEAN.test(value) ? value.replace(INVISIBLE, '').replace(BREAKS, ' ').replace(LONE_SURROGATE, '\ufffd') : value;
  text = text.trim();
  if (text.length <= max) return text;
  // A cut between the halves of a pair would leave a lone surrogate.
  const end = /[\ud800-\udbff]/.test(text[max - 1]!) ? max - 1 : max;
  return text.slice(0, end).trimEnd();
}

/** Each value of `values` as one clean line; a value with nothing left is left out (as if never sent). */
export function oneLineEach<T extends Record<string, string | undefined>>(values: T, max: number): T {
  const clean: Record<string, string> = {};
  for (const [key, value] of Object.entries(values)) {
    const line = typeof value === 'string' ? oneLine(value, max) : '';
    if (line !== '') clean[key] = line;
  }
  return clean as T;
}
