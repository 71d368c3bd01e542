// What the report keeps of a visitor's value for its groups (leads and opens alike, so one campaign
// is one group): anything a browser can send, bounded and in one form. Invisible characters
// (controls, bidi overrides, zero-width marks) go, line breaks and runs of spaces become one space;
// utm values are case-folded, as "Newsletter" and "newsletter" are one campaign to a marketer;
// a page is a path only, percent-escapes in one case, at most PAGE_SEGMENTS segments, no empty ones.
import { oneLine } from '../visitor-text/one-line.ts';

/** Characters of a utm value kept: a campaign name, not a message. */
export const GROUP_VALUE_LENGTH = 100;
/** A page's path is cut to this many characters and segments: deeper parts say nothing the report groups by. */
export const PAGE_LENGTH = 160;
export const PAGE_SEGMENTS = 8;

/** Format characters one line may keep (zero-width marks, U+FEFF…) that a group key drops too. */
const FORMAT = /\p{Cf}/gu;

/**
 * `text` as one clean line (visitor-text/one-line.ts: no line break, control or bidi character),
 * without format characters, its runs of spaces collapsed, at most `max` characters.
 */
export function visibleText(text: string, max: number): string {
  return oneLine(oneLine(text.normalize('NFC'), Number.MAX_SAFE_INTEGER).replace(FORMAT, '').replace(/\s+/g, ' '), max);
}

/** A utm value as the report groups it. */
export const groupText = (value: string | null | undefined): string => visibleText((value ?? '').toLowerCase(), GROUP_VALUE_LENGTH);

/**
 * A page as the report groups it: the path of `path` (a path, or a URL's path), '' when there is
 * none. Parsed as a URL path, so raw characters come out percent-encoded as a browser writes them
 * (no control or bidi character survives) and dot segments are resolved.
 */
export function groupPath(path: string | null | undefined): string {
  if (!path) return '';
  let pathname: string;
  try {
    pathname = new URL(`http://x/${path}`).pathname;
  } catch {
    return '';
  }
  const segments = pathname
    .replace(/%[\da-f]{2}/gi, (e) => e.toUpperCase())
    .split('/')
    .filter((s) => s !== '')
    .slice(0, PAGE_SEGMENTS);
  const joined = `/${segments.join('/')}`;
  // Cut, never inside a percent-escape nor inside a character's UTF-8 bytes (the read side decodes it).
  return joined.length <= PAGE_LENGTH ? joined : wholeCharacters(joined.slice(0, PAGE_LENGTH).replace(/%[\dA-F]?$/, ''));
}

/** `path` without the escapes of a character its cut left incomplete at the end. */
function wholeCharacters(path: string): string {
  const bytes = (/(?:%[\dA-F]{2})+$/.exec(path)?.[0].match(/%../g) ?? []).map((e) => Number.parseInt(e.slice(1), 16));
  let lead = bytes.length - 1;
  while (lead >= 0 && (bytes[lead]! & 0xc0) === 0x80) lead--;
  if (lead < 0) return path;
  const first = bytes[lead]!;
  const length = first >= 0xf0 ? 4 : first >= 0xe0 ? 3 : first >= 0xc0 ? 2 : 1;
  const have = bytes.length - lead;
  return have < length ? path.slice(0, path.length - have * 3) : path;
}
