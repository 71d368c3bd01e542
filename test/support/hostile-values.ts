// One hostile set for every channel a visitor's value reaches: the callback request and the open
// beacon, and then the email (text and HTML), Telegram, the daily digest, the lead webhook, the
// report's CSV and the owner view. Each value tries one way to make a message say what the relay
// did not write: a line of its own, a reordered line, a link, a formula, markup, a huge cell.
// The checks below say what every channel must hold to, whatever it was given.
import { expect } from 'vitest';

/** The outside probe of issue 30: a utm source that writes two lines looking like the message's own. */
export const FORGED_LINES = 'google\n\nNumber: +44 909 879 0000 (the visitor asked to be called on this one)\nState: answered';

/** Text values (utm values, client id, locale, department, a page path). */
export const HOSTILE_TEXT: Readonly<Record<string, string>> = {
  forgedLines: FORGED_LINES,
  carriageReturn: 'google\rState: answered',
  crlfTotal: 'google\r\n\r\nTotal  99  99  0  0  0  0',
  lineSeparators: 'google\u2028Number: +44 909 879 0000\u2029State: answered',
  nextLineAndFeeds: 'google\u0085State: answered\u000bx\u000cy',
  bidiOverride: 'google\u202Emoc.live',
  bidiMarks: '\u2066\u200Fevil\u200E\u2069\u061C\u202A\u202B\u202C\u202D',
  nulAndEscapes: 'goo\u0000gle\u0007\u001b[31mred\u009b',
  tabFormula: '\t=1+1',
  javascriptUrl: 'javascript:alert(document.domain)',
  dataUrl: 'data:text/html,<script>alert(1)</script>',
  otherDomainUrl: 'https://evil.example/login',
  html: '<script>alert(1)</script><a href="javascript:alert(1)">x</a>',
  formula: '=1+1',
  semicolonFormula: 'x;=1+1',
  quotesAndSeparators: 'a,"b";c\nd',
  plusFormula: "+cmd|' /C calc'!A0",
  atFormula: '@SUM(1+1)',
  minusFormula: '-2+3',
  total: 'Total',
  long: 'long'.repeat(1250),
};

/** Page URLs a request may claim; none of them is an http(s) page of the request's origin (https://shop.example). */
export const HOSTILE_PAGE_URLS: readonly string[] = [
  'javascript:alert(document.domain)',
  'data:text/html,<script>alert(1)</script>',
  'https://evil.example/login',
  'http://shop.example.evil/',
  'https://shop.example@evil.example/',
  'https://shop.example.evil.example/',
  'ftp://shop.example/file',
  '//evil.example/x',
  'not a url',
  'https://evil.example/\u202Emoc.elpmaxe.pohs',
];

/** What no value a channel shows (or the relay stores) may hold: C0/C1 controls, line and paragraph separators, bidi controls. */
// biome-ignore lint/suspicious/noControlCharactersInRegex: control characters are what no channel may show
export const FORBIDDEN = /[\0-\x1f\x7f-\x9f\u2028\u2029\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069]/;

/** Each value within `max` characters (what the request's schema takes), the long one cut. */
export const hostileWithin = (max: number): Record<string, string> => Object.fromEntries(Object.entries(HOSTILE_TEXT).map(([k, v]) => [k, v.slice(0, max)]));

/** A value a channel shows, stored, or sent: one line, no control, separator or bidi character. */
export function expectOneCleanLine(value: unknown, where: string): void {
  if (typeof value !== 'string') return;
  expect(FORBIDDEN.test(value), `${where}: ${JSON.stringify(value).slice(0, 120)}`).toBe(false);
}

/** Every string anywhere in `value` (a JSON answer or body) is one clean line. */
export function expectCleanStrings(value: unknown, where: string): void {
  if (typeof value === 'string') expectOneCleanLine(value, where);
  else if (Array.isArray(value)) for (const [i, v] of value.entries()) expectCleanStrings(v, `${where}[${i}]`);
  else if (value !== null && typeof value === 'object') for (const [k, v] of Object.entries(value)) expectCleanStrings(v, `${where}.${k}`);
}

/** Lines of a message (split on the message's own line breaks), each clean. */
export function cleanLines(text: string, where: string): string[] {
  const lines = text.split('\n');
  for (const [i, line] of lines.entries()) expectOneCleanLine(line, `${where} line ${i}`);
  return lines;
}

/** A page URL a channel shows or sends: none, or an http(s) page of `origin`. */
export function expectPageOf(origin: string, url: unknown, where: string): void {
  if (url === null || url === undefined) return;
  expect(typeof url, where).toBe('string');
  expect(new URL(url as string).origin, `${where}: ${url as string}`).toBe(origin);
}

/** A CSV file (RFC 4180) as a spreadsheet in a locale that separates with `delimiter` reads it: rows of cells. */
export function readCsv(text: string, delimiter = ','): string[][] {
  const rows: string[][] = [];
  let row: string[] = [];
  let cell = '';
  let quoted = false;
  for (let i = 0; i < text.length; i++) {
    const c = text[i]!;
    if (quoted) {
      if (c === '"' && text[i + 1] === '"') {
        cell += '"';
        i++;
      } else if (c === '"') quoted = false;
      else cell += c;
    } else if (c === '"' && cell === '') {
      // A quote opens a quoted cell only at its start, as spreadsheets read it.
      quoted = true;
    } else if (c === delimiter) {
      row.push(cell);
      cell = '';
    } else if (c === '\r' && text[i + 1] === '\n') {
      row.push(cell);
      rows.push(row);
      row = [];
      cell = '';
      i++;
    } else cell += c;
  }
  if (cell !== '' || row.length > 0) rows.push([...row, cell]);
  return rows;
}

/** What a spreadsheet would run as a formula: a cell starting with = + - @, a tab or a carriage return. */
export const FORMULA_START = /^[=+\-@\t\r]/;
