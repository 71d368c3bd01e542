// The URLs a visitor's browser sends (the page, the privacy notice): only an absolute http(s) URL is
// kept, written as the URL parser writes it, and a page must be on the request's own allowed Origin,
// since channels show them as links and the lead webhook hands them to a CRM. A page that fails is
// dropped (null), never refused: a visitor's call must not be lost for it. Details: visitor-text/README.md.

/** Longest page URL kept, as the parser writes it (the widget sends at most 2,048 characters). */
export const PAGE_URL_MAX = 2048;

/** `value` parsed, when it is an absolute http(s) URL with a host. */
function parseHttp(value: string): URL | null {
  const url = URL.parse(value);
  return url !== null && (url.protocol === 'https:' || url.protocol === 'http:') && url.hostname !== '' ? url : null;
}

/** `value` as an absolute http(s) URL with a host, as the URL parser writes it; null for anything else. */
export const httpUrl = (value: string): string | null => parseHttp(value)?.href ?? null;

export type PageUrlDrop = 'not_http' | 'other_origin' | 'too_long';

/** The page kept for a request from `origin` (an allowed Origin as config writes it: `url.origin`), or null and why. */
export function pageOfOrigin(value: string | null | undefined, origin: string): { url: string | null; dropped?: PageUrlDrop } {
  if (value === null || value === undefined) return { url: null };
  const url = parseHttp(value);
  if (url === null) return { url: null, dropped: 'not_http' };
  if (url.origin !== origin) return { url: null, dropped: 'other_origin' };
  if (url.href.length > PAGE_URL_MAX) return { url: null, dropped: 'too_long' };
  return { url: url.href };
}
