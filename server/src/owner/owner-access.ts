// Who may see the owner view. It shows agents and calls, never the Auth-key, but it is still the
// business's own data: outside demo mode it exists only with OWNER_TOKEN, and when OWNER_TOKEN is set
// it is required (demo mode too). Until the token is right, every path and method under /owner is
// the same 404 as an unknown path: nothing tells a prober the view exists.
//
// Where the token may come from:
//   - the page itself: `?token=` (how an owner opens it) or a header;
//   - its script, styles and JSON: a header (`X-Owner-Token`, `Authorization: Bearer`) or the
//     session cookie the page sets once its token was right (a <script src> cannot send a header).
//     Never the query: a token in a JSON URL ends up in proxies' and browsers' logs.
// The cookie holds an HMAC of the token, not the token; it is HttpOnly, SameSite=Strict and scoped
// to /owner. Comparisons take constant time.
import { createHmac } from 'node:crypto';
import type { IncomingMessage } from 'node:http';
import type { Config } from '../config/index.ts';
import { secretMatcher } from '../lib/secret-match.ts';

export const OWNER_COOKIE = 'dialback_owner';
const SESSION_HOURS = 12;

export interface OwnerAccess {
  /** False: no /owner routes at all. */
  readonly enabled: boolean;
  /** May this request see the page (token in the query, a header, or the cookie)? */
  page(req: IncomingMessage, url: URL): boolean;
  /** May this request read the view's assets and JSON (a header or the cookie; never the query)? */
  resource(req: IncomingMessage): boolean;
  /** The Set-Cookie value the page answer carries, or null when no token is configured. */
  readonly sessionCookie: string | null;
}

function headerToken(req: IncomingMessage): string | null {
  const header = req.headers['x-owner-token'];
  if (typeof header === 'string' && header) return header;
  const auth = req.headers.authorization;
  if (typeof auth === 'string' && /^Bearer\s+/i.test(auth)) return auth.replace(/^Bearer\s+/i, '');
  return null;
}

function cookieValue(req: IncomingMessage, name: string): string | null {
  const header = req.headers.cookie;
  if (!header) return null;
  for (const part of header.split(';')) {
    const eq = part.indexOf('=');
    if (eq > 0 && part.slice(0, eq).trim() === name) return part.slice(eq + 1).trim();
  }
  return null;
}

export function createOwnerAccess(config: Pick<Config, 'service' | 'owner' | 'http'>): OwnerAccess {
  const token = config.owner.token;
  if (token === null) {
    const open = () => config.service.demo;
    return { enabled: config.service.demo, page: open, resource: open, sessionCookie: null };
  }
  const isToken = secretMatcher(token);
  const session = createHmac('sha256', token).update('dialback owner view session').digest('base64url');
  const isSession = secretMatcher(session);
  const resource = (req: IncomingMessage) => {
    const given = headerToken(req);
    if (given !== null) return isToken(given);
    const cookie = cookieValue(req, OWNER_COOKIE);
    return cookie !== null && isSession(cookie);
  };
  const secure = config.http.publicUrl.startsWith('https:') ? '; Secure' : '';
  return {
    enabled: true,
    page(req, url) {
      const given = url.searchParams.get('token');
      return given !== null ? isToken(given) : resource(req);
    },
    resource,
    sessionCookie: `${OWNER_COOKIE}=${session}; Path=/owner; HttpOnly; SameSite=Strict; Max-Age=${SESSION_HOURS * 3600}${secure}`,
  };
}
