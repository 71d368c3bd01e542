// The origin allowlist. The relay checks it itself before any side effect: CORS only tells browsers
// what they may read, it stops nothing. Requests that place calls must carry an allowed Origin;
// reads may come without one (same-origin GETs, health checks), but a foreign one is refused.
import type { IncomingMessage } from 'node:http';
import { RelayError } from '../errors.js';

export interface OriginPolicy {
  /** The request's allowed origin, or null when it sent none. Throws origin_not_allowed. */
  check(req: IncomingMessage, options: { required: boolean }): string | null;
  /** CORS headers for an answer to an allowed origin (shared object: do not modify). */
  corsHeaders(origin: string | null): Readonly<Record<string, string>>;
  /** CORS headers for a preflight (OPTIONS) answer: what the browser may send, and for how long. */
  preflightHeaders(origin: string | null): Readonly<Record<string, string>>;
}

const none: Readonly<Record<string, string>> = Object.freeze({});

export function createOriginPolicy(allowed: readonly string[]): OriginPolicy {
  const allowedSet = new Set(allowed.map((o) => o.toLowerCase()));
  // Headers per origin, made once: origins come from the allowlist, so there are few of them.
  // Browsers read Allow-Methods, Allow-Headers and Max-Age from preflight answers only, so the
  // answers themselves carry just what lets the page read them (and Retry-After).
  const answerCache = new Map<string, Readonly<Record<string, string>>>();
  const preflightCache = new Map<string, Readonly<Record<string, string>>>();
  const cached = (cache: Map<string, Readonly<Record<string, string>>>, origin: string, make: () => Record<string, string>) => {
    let headers = cache.get(origin);
    if (!headers) {
      headers = Object.freeze(make());
      // Bounded by the allowlist, up to the case variants a client may write.
      if (cache.size < 1000) cache.set(origin, headers);
    }
    return headers;
  };
  const answerHeaders = (origin: string) => ({
    'access-control-allow-origin': origin,
    'access-control-expose-headers': 'Retry-After',
    vary: 'Origin',
  });
  return {
    check(req, { required }) {
      const origin = req.headers.origin;
      if (!origin || origin === 'null') {
        if (required) throw new RelayError('origin_not_allowed', 'This request must come from a web page (no Origin header was sent).');
        return null;
      }
      if (!allowedSet.has(origin.toLowerCase())) {
        throw new RelayError('origin_not_allowed', `The site ${truncate(origin)} is not allowed to use this callback service.`);
      }
      return origin;
    },
    corsHeaders(origin) {
      return origin ? cached(answerCache, origin, () => answerHeaders(origin)) : none;
    },
    preflightHeaders(origin) {
      if (!origin) return none;
      return cached(preflightCache, origin, () => ({
        ...answerHeaders(origin),
        'access-control-allow-methods': 'GET, POST, OPTIONS',
        'access-control-allow-headers': 'Content-Type, Idempotency-Key',
        'access-control-max-age': '600',
      }));
    },
  };
}

const truncate = (s: string) => (s.length > 100 ? `${s.slice(0, 100)}…` : s);
