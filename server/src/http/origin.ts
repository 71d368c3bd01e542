// The origin allowlist, checked by the relay itself before any side effect (CORS stops nothing). Each
// route says whether it needs an allowed Origin; a foreign one is always refused. A same-origin GET
// carries no Origin, so `Sec-Fetch-Site: same-origin` counts as the relay's own PUBLIC_URL: a rule for
// pages, not a credential. Details: http/README.md.
import type { IncomingMessage } from 'node:http';
import { RelayError } from '../contract/errors.ts';

export interface OriginPolicy {
  /** The request's allowed origin as the allowlist writes it, or null when it sent none. Throws origin_not_allowed. */
  check(req: IncomingMessage, options: { required: boolean }): string | null;
  /** CORS headers for an answer to an allowed origin (shared object: do not modify). */
  corsHeaders(origin: string | null): Readonly<Record<string, string>>;
  /** CORS headers for a preflight (OPTIONS) answer: what the browser may send, and for how long. */
  preflightHeaders(origin: string | null): Readonly<Record<string, string>>;
}

const none: Readonly<Record<string, string>> = Object.freeze({});

export function createOriginPolicy(allowed: readonly string[], publicUrl?: string): OriginPolicy {
  // Each allowed origin as config wrote it (already canonical: config keeps `url.origin`), found by
  // its lowercase form. `check` answers with that entry, never with the header as sent, so a case
  // variant is the same site everywhere: in the site caps, idempotency scopes and CORS headers.
  const canonical = new Map(allowed.map((o) => [o.toLowerCase(), o]));
  // Browsers read Allow-Methods, Allow-Headers and Max-Age from preflight answers only, so the
  // answers themselves carry just what lets the page read them (and Retry-After). Made once per
  // allowed origin.
  const answerHeaders = new Map<string, Readonly<Record<string, string>>>();
  const preflightHeaders = new Map<string, Readonly<Record<string, string>>>();
  for (const origin of canonical.values()) {
    const answer = { 'access-control-allow-origin': origin, 'access-control-expose-headers': 'Retry-After', vary: 'Origin' };
    answerHeaders.set(origin, Object.freeze(answer));
    preflightHeaders.set(
      origin,
      Object.freeze({
        ...answer,
        'access-control-allow-methods': 'GET, POST, DELETE, OPTIONS',
        'access-control-allow-headers': 'Content-Type, Idempotency-Key, Cancel-Token',
        'access-control-max-age': '600',
      }),
    );
  }
  const ownOrigin = publicUrl === undefined ? undefined : canonical.get(new URL(publicUrl).origin.toLowerCase());
  return {
    check(req, { required }) {
      const origin = req.headers.origin;
      if (!origin || origin === 'null') {
        if (ownOrigin !== undefined && origin === undefined && req.method === 'GET' && req.headers['sec-fetch-site'] === 'same-origin') return ownOrigin;
        if (required) throw new RelayError('origin_not_allowed', 'This request must come from a web page (no Origin header was sent).');
        return null;
      }
      const entry = canonical.get(origin.toLowerCase());
      if (entry === undefined) {
        throw new RelayError('origin_not_allowed', `The site ${truncate(origin)} is not allowed to use this callback service.`);
      }
      return entry;
    },
    corsHeaders: (origin) => (origin ? (answerHeaders.get(origin) ?? none) : none),
    preflightHeaders: (origin) => (origin ? (preflightHeaders.get(origin) ?? none) : none),
  };
}

const truncate = (s: string) => (s.length > 100 ? `${s.slice(0, 100)}…` : s);
