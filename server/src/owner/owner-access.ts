// Who may see the owner view. It shows agents and calls, never the Auth-key, but it is still the
// business's own data: outside demo mode it exists only with OWNER_TOKEN, and when OWNER_TOKEN is set
// it is required (demo mode too). The token comes as `?token=` (for opening the page), or as the
// header `X-Owner-Token` / `Authorization: Bearer` (the page's own requests). A wrong or missing token
// is the same 404 as an unknown path, and the comparison takes constant time.
import type { IncomingMessage } from 'node:http';
import type { Config } from '../config.ts';
import { RelayError } from '../errors.ts';
import { secretMatcher } from '../util/secret.ts';

export interface OwnerAccess {
  /** False: no /owner routes at all. */
  readonly enabled: boolean;
  /** Throws the router's own 404 unless the request may see the owner view. */
  check(req: IncomingMessage, url: URL): void;
}

function presentedToken(req: IncomingMessage, url: URL): string | null {
  const header = req.headers['x-owner-token'];
  if (typeof header === 'string' && header) return header;
  const auth = req.headers.authorization;
  if (typeof auth === 'string' && /^Bearer\s+/i.test(auth)) return auth.replace(/^Bearer\s+/i, '');
  return url.searchParams.get('token');
}

export function createOwnerAccess(config: Pick<Config, 'demo' | 'ownerToken'>): OwnerAccess {
  const matches = config.ownerToken === null ? null : secretMatcher(config.ownerToken);
  return {
    enabled: config.demo || matches !== null,
    check(req, url) {
      if (matches === null) {
        if (config.demo) return;
      } else {
        const given = presentedToken(req, url);
        if (given !== null && matches(given)) return;
      }
      const path = url.pathname;
      throw new RelayError('not_found', `Nothing is served at ${path.length > 100 ? path.slice(0, 100) + '…' : path}.`);
    },
  };
}
