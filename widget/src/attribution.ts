// Attribution from the call-tracking service's own cookies (formats in docs/embedding.md, Attribution):
//   rngst2 = encodeURIComponent(JSON) of {utmz: {utm_source, …}, sl}  → utm values
//   _ga    = GA1.<n>.<random>.<seconds>                                → client id (last two parts)
//   rngst  = encodeURIComponent(JSON) of {clientId}                    → client id when there is no _ga
// utm_* in the page URL (now, or when the script loaded) fill in when rngst2 says nothing. Placeholders such as (direct), (none) and
// (not set) are real values and pass unchanged. The cookies belong to someone else's script and may
// be missing, blocked or truncated: nothing here may throw. They are read as they are when asked
// (never at page load), and only as the visitor's consent allows (the caller decides: consent/).
// Read with js-cookie's Cookies.get (RFC 6265 quotes dropped, %XX sequences in names and values
// decoded; a malformed one is left unread), in this lazily loaded chunk only: its whole API (the
// writers too, one object the bundler cannot trim) costs ~500 B, paid by visitors who open the
// dialog, never by the script-tag entry.
import Cookies from 'js-cookie';
import type { Attribution } from '../../server/src/contract/contract.ts';

const utmFields = ['Source', 'Medium', 'Campaign', 'Content', 'Term'] as const;

/** A value the relay's schema accepts (1–200 characters after trimming), else undefined. */
function clean(value: unknown): string | undefined {
  const trimmed = typeof value === 'string' ? value.trim() : '';
  return trimmed && trimmed.length <= 200 ? trimmed : undefined;
}

/** A cookie's JSON value as an object; undefined when missing, truncated or not JSON. */
function jsonCookie(name: string): Record<string, unknown> | undefined {
  try {
    return Object(JSON.parse(Cookies.get(name)!)) as Record<string, unknown>;
  } catch {
    return undefined;
  }
}

/** `GA1.1.1907690628.1747750782` → `1907690628.1747750782`; anything else → undefined. */
export function gaClientId(cookie: string | undefined): string | undefined {
  return /^GA\d+\.\d+(?:-\d+)?\.(\d+\.\d+)$/.exec(cookie ?? '')?.[1];
}

function utmFrom(read: (key: string) => unknown): Attribution {
  const result: Attribution = {};
  for (const field of utmFields) {
    const value = clean(read('utm_' + field.toLowerCase()));
    if (value) result[`utm${field}`] = value;
  }
  return result;
}

function urlParams(url: string): URLSearchParams | undefined {
  try {
    return new URL(url).searchParams;
  } catch {
    return undefined;
  }
}

/**
 * Reads every source the visitor's consent allows. `cookies`: whether the tracking cookies may be
 * read (consent/); without, only the page addresses count (nothing is read from the device).
 * `pageUrls`: the page's address now and when the script loaded; the first with utm_* parameters
 * is the fallback when the rngst2 cookie holds none.
 */
export function readAttribution(cookies: boolean, ...pageUrls: string[]): Attribution {
  const utmz = Object(cookies && jsonCookie('rngst2')?.utmz) as Record<string, unknown>;
  let result = utmFrom((key) => utmz[key]);
  for (const url of pageUrls) {
    if (Object.keys(result).length) break;
    const params = urlParams(url);
    result = utmFrom((key) => params?.get(key));
  }
  const clientId = cookies ? (clean(gaClientId(Cookies.get('_ga'))) ?? clean(jsonCookie('rngst')?.clientId)) : undefined;
  if (clientId) result.clientId = clientId;
  return result;
}
