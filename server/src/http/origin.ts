// The origin allowlist. The relay checks it itself before any side effect: CORS only tells browsers
// what they may read, it stops nothing. Requests that place calls must carry an allowed Origin;
// reads may come without one (same-origin GETs, health checks), but a foreign one is refused.
import type { IncomingMessage } from 'node:http';
import { RelayError } from '../errors.js';

export interface OriginPolicy {
  /** The request's allowed origin, or null when it sent none. Throws origin_not_allowed. */
  check(req: IncomingMessage, options: { required: boolean }): string | null;
  corsHeaders(origin: string | null): Record<string, string>;
}

export function createOriginPolicy(allowed: readonly string[]): OriginPolicy {
  const allowedSet = new Set(allowed.map((o) => o.toLowerCase()));
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
    corsHeaders(origin): Record<string, string> {
      if (!origin) return {};
      return {
        'access-control-allow-origin': origin,
        'access-control-allow-methods': 'GET, POST, OPTIONS',
        'access-control-allow-headers': 'Content-Type, Idempotency-Key',
        'access-control-expose-headers': 'Retry-After',
        'access-control-max-age': '600',
        vary: 'Origin',
      };
    },
  };
}

const truncate = (s: string) => (s.length > 100 ? `${s.slice(0, 100)}…` : s);
