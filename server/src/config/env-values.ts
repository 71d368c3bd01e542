// What the environment reader (env.ts) accepts for the kinds of value that need more than a
// pattern: flags, duration units, URLs, origins, time zones, URL tokens. Pure checks; env.ts words
// the errors.

/** How `env.text` judges a value. */
export interface TextRule {
  pattern?: RegExp;
  check?: (value: string) => boolean;
  /** What a valid value looks like, after "expected". */
  expected?: string;
  /** Keys, tokens and URLs that may carry a password: never echoed in the error. */
  secret?: boolean;
}

/** Secrets that travel in URLs (ROUTE_WEBHOOK_TOKEN; OWNER_TOKEN, stricter, below): long enough not to guess, URL-safe so nothing mangles them. */
export const URL_TOKEN: TextRule = {
  pattern: /^[A-Za-z0-9._~-]{16,256}$/,
  expected: 'a random URL-safe token of at least 16 characters (letters, digits, . _ ~ -), e.g. from `openssl rand -hex 24`',
  secret: true,
};

/**
 * OWNER_TOKEN opens the business's own data and its actions: 32 characters at least, and not one
 * character or a short piece (up to 4 characters) said again and again (`aaaa…`, `abab…`), which a
 * guesser tries first whatever its length.
 */
export const OWNER_TOKEN_RULE: TextRule = {
  pattern: /^[A-Za-z0-9._~-]{32,256}$/,
  check: (value) => !/^(.{1,4})\1+$/.test(value),
  expected: 'a random URL-safe token of at least 32 characters (letters, digits, . _ ~ -), not one character or a short piece repeated, e.g. from `openssl rand -hex 24`',
  secret: true,
};

export const FLAGS: ReadonlyMap<string, boolean> = new Map([
  ['true', true],
  ['false', false],
  ['1', true],
  ['0', false],
  ['yes', true],
  ['no', false],
]);

/** The unit a duration is counted in, from its name, so every duration error names it. */
export function durationUnit(name: string): string {
  if (name.endsWith('_MS')) return 'milliseconds';
  if (name.endsWith('_SECONDS')) return 'seconds';
  if (name.endsWith('_DAYS')) return 'days';
  throw new Error(`${name} is not named for a unit (_MS, _SECONDS, _DAYS)`);
}

const LOOPBACK_HOST = /^(localhost|127(\.\d{1,3}){3}|\[::1\])$/i;
const isHttp = (url: URL) => url.protocol === 'http:' || url.protocol === 'https:';

/** The http(s) rules, written once: which URLs each kind of setting takes. */
export const URL_RULES = {
  /** A service endpoint (CALLTRACKING_BASE_URL, TURNSTILE_VERIFY_URL). */
  http: { expected: 'an http(s) URL', accepts: isHttp },
  /** Where the relay sends visitors' data: https, or http to this machine (a CRM bridge, tests); no credentials in it. */
  outbound: {
    expected: 'an https URL (http only for localhost or 127.0.0.1), without credentials',
    accepts: (url: URL) => !url.username && !url.password && (url.protocol === 'https:' || (url.protocol === 'http:' && LOOPBACK_HOST.test(url.hostname))),
  },
} as const;

export type UrlRule = keyof typeof URL_RULES;

/** A URL written out with its scheme (`http:example.com` would parse, but is a typo). */
export const parseUrl = (value: string): URL | null => (/^[a-z][a-z0-9+.-]*:\/\//i.test(value) ? URL.parse(value) : null);

export const ORIGIN_EXPECTED = 'an origin such as https://shop.example.com';

/** `value` as a browser sends it in `Origin` (scheme, host, port; a trailing slash tolerated), or null. */
export function asOrigin(value: string): string | null {
  const url = URL.parse(value);
  if (!url || !isHttp(url)) return null;
  return url.origin === value.replace(/\/$/, '') ? url.origin : null;
}

export function isTimeZone(zone: string): boolean {
  try {
    new Intl.DateTimeFormat('en-US', { timeZone: zone });
    return true;
  } catch {
    return false;
  }
}
