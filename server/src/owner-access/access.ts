// Who may use the owner view, applied from each /owner route's `access` before any handler: the
// token or its session cookie (throttled when wrong), demo mode under the relay's own Host, and for a
// change proof that the owner view sent it. Until a request may use it, everything under /owner is the
// unknown path's 404, so nothing tells a prober the view exists. The rules in full:
// owner-access/README.md.
import type { IncomingMessage } from 'node:http';
import type { Config } from '../config/index.ts';
import { secretMatcher } from '../lib/secret-match.ts';
import type { LimitStore } from '../limits/limit-store.ts';
import type { Fields, Logger } from '../log/index.ts';
import { ownHostCheck } from './own-host.ts';
import { fromOwnPage, notFromElsewhere } from './provenance.ts';
import { createOwnerSessions, SESSION_SECONDS } from './session.ts';
import { createTokenThrottle } from './token-throttle.ts';

export const OWNER_COOKIE = 'dialback_owner';

/** What access reads of a request: a part of the relay's RequestContext, which routes pass as it is. */
export interface AccessRequest {
  readonly req: IncomingMessage;
  readonly url: URL;
  readonly clientIp: string;
  /** Why a request was refused goes on its own log line. */
  logFields?: Fields;
}

/** How a request was let in: the token in the query or a header, a session cookie, or demo mode's open view. */
type Admission = 'query' | 'header' | 'session' | 'open';
type Check = (rc: AccessRequest) => Promise<boolean>;

export interface OwnerAccess {
  /** False: no /owner routes at all. */
  readonly enabled: boolean;
  /** May this request see the page (the token in the query or a header, or the session cookie)? */
  page: Check;
  /** May this request use the view's assets and JSON (a header or the cookie; never the query)? */
  resource: Check;
  /** The Set-Cookie a page answer carries: a new session when this request gave the token, else null. */
  sessionCookie(req: IncomingMessage): string | null;
}

export interface OwnerAccessDeps {
  config: Pick<Config, 'service' | 'owner' | 'http' | 'hash'>;
  limits: LimitStore;
  /** The relay's clock (app.now), which sessions are judged by. */
  now: () => number;
  log: Logger;
}

function headerToken(req: IncomingMessage): string | null {
  const header = req.headers['x-owner-token'];
  if (typeof header === 'string' && header) return header;
  const auth = req.headers.authorization;
  if (typeof auth === 'string' && /^Bearer\s+/i.test(auth)) return auth.replace(/^Bearer\s+/i, '');
  return null;
}

/**
 * Whether any cookie named `name` passes `valid`: another page of the site may set one of the same
 * name for the whole site (cookie tossing), which the browser may send first; it must not hide ours.
 */
function anyCookie(req: IncomingMessage, name: string, valid: (value: string) => boolean): boolean {
  const header = req.headers.cookie;
  if (!header) return false;
  for (const part of header.split(';')) {
    const eq = part.indexOf('=');
    if (eq > 0 && part.slice(0, eq).trim() === name && valid(part.slice(eq + 1).trim())) return true;
  }
  return false;
}

/** Whether what the request does is allowed to one let in `how`: reads unless another origin asked; changes with proof. */
function allowedUse(req: IncomingMessage, how: Admission, page: boolean, isOwnOrigin: (origin: string) => boolean): boolean {
  if (how === 'header') return true;
  if (req.method === 'GET' || req.method === 'HEAD') return page || notFromElsewhere(req);
  return fromOwnPage(req, isOwnOrigin);
}

const refuse = (rc: AccessRequest, reason: string) => {
  rc.logFields = { ...rc.logFields, refused: reason };
};

export function createOwnerAccess(deps: OwnerAccessDeps): OwnerAccess {
  const { config } = deps;
  const token = config.owner.token;
  const publicOrigin = new URL(config.http.publicUrl).origin;
  if (token === null) {
    const no = async () => false;
    if (!config.service.demo) return { enabled: false, page: no, resource: no, sessionCookie: () => null };
    const ownHost = ownHostCheck(config.http.publicUrl);
    // Past the Host check, an Origin naming that same host is the page itself.
    const open = (page: boolean) => async (rc: AccessRequest) => {
      const { req } = rc;
      if (!ownHost(req)) return false;
      return allowedUse(req, 'open', page, (origin) => origin === publicOrigin || URL.parse(origin)?.host === req.headers.host?.toLowerCase());
    };
    return { enabled: true, page: open(true), resource: open(false), sessionCookie: () => null };
  }

  const isToken = secretMatcher(token);
  const sessions = createOwnerSessions(token, deps.now);
  const throttle = createTokenThrottle({ limits: deps.limits, hashSecret: config.hash.secret, now: deps.now });
  const isOwnOrigin = (origin: string) => origin === publicOrigin;
  const admitted = new WeakMap<IncomingMessage, Admission>();

  async function admission(rc: AccessRequest, page: boolean): Promise<Admission | null> {
    const fromQuery = page ? rc.url.searchParams.get('token') : null;
    const given = fromQuery ?? headerToken(rc.req);
    const how: Admission = fromQuery !== null ? 'query' : 'header';
    if (anyCookie(rc.req, OWNER_COOKIE, sessions.valid)) return given !== null && isToken(given) ? how : 'session';
    if (given === null) return null;
    let verdict: 'right' | 'wrong' | 'owner_token_throttled' | 'owner_token_unchecked';
    try {
      verdict = !(await throttle.open(rc.clientIp)) ? 'owner_token_throttled' : isToken(given) ? 'right' : 'wrong';
      if (verdict === 'wrong') await throttle.wrong(rc.clientIp);
    } catch (err) {
      // The shared store could not answer: no token is judged unthrottled (fail closed).
      deps.log.warn('owner token not checked: the limit store did not answer', { err });
      verdict = 'owner_token_unchecked';
    }
    if (verdict === 'right') return how;
    refuse(rc, verdict === 'wrong' ? 'owner_token_wrong' : verdict);
    return null;
  }

  const check = (page: boolean) => async (rc: AccessRequest) => {
    const how = await admission(rc, page);
    if (how === null || !allowedUse(rc.req, how, page, isOwnOrigin)) return false;
    admitted.set(rc.req, how);
    return true;
  };
  const secure = config.http.publicUrl.startsWith('https:') ? '; Secure' : '';
  return {
    enabled: true,
    page: check(true),
    resource: check(false),
    sessionCookie(req) {
      const how = admitted.get(req);
      if (how !== 'query' && how !== 'header') return null;
      return `${OWNER_COOKIE}=${sessions.issue()}; Path=/owner; HttpOnly; SameSite=Strict; Max-Age=${SESSION_SECONDS}${secure}`;
    },
  };
}
