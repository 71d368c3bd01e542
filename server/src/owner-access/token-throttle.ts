// Wrong owner tokens, counted where every relay sees them (the limit store: memory, SQLite or Redis),
// per client (an IPv4 address, an IPv6 /64) and per network (IPv4 /24, IPv6 /56 and /48): at most
// WRONG_TOKENS_PER_CLIENT and WRONG_TOKENS_PER_NETWORK an hour. Past that, no token from there is
// compared, the right one neither: a guesser learns nothing more from there for the hour. Only a
// token given and wrong counts; a request with no token costs nothing. Keys are keyed hashes (HMAC
// with HASH_SECRET) that expire with their hour, as the callback limits' are.
import { clientKey } from '../limits/client-key.ts';
import { createLimitKeys } from '../limits/keys.ts';
import type { CountRule, LimitCheck, LimitStore } from '../limits/limit-store.ts';
import { networksOf } from '../limits/networks.ts';

export const WRONG_TOKENS_PER_CLIENT = 10;
export const WRONG_TOKENS_PER_NETWORK = 30;
const HOUR = 3600;

export interface TokenThrottle {
  /** Whether a token from this client may be compared now: neither it nor a network of it is over its limit. */
  open(clientIp: string): Promise<boolean>;
  /** Counts one wrong token against the client and its networks. */
  wrong(clientIp: string): Promise<void>;
}

export function createTokenThrottle(deps: { limits: LimitStore; hashSecret: string; now: () => number }): TokenThrottle {
  const keys = createLimitKeys(deps.hashSecret);
  const clientRules: readonly CountRule[] = [{ reason: 'client_rate', limit: WRONG_TOKENS_PER_CLIENT, windowSec: HOUR, exact: true }];
  const networkRules: readonly CountRule[] = [{ reason: 'network_rate', limit: WRONG_TOKENS_PER_NETWORK, windowSec: HOUR, exact: true }];
  const checksOf = (clientIp: string): LimitCheck[] => [
    { table: 'owner_token_client', key: keys.one('owner_token_client', clientKey(clientIp)), counts: clientRules },
    ...networksOf(clientIp).map((n): LimitCheck => ({ table: `owner_token_network_${n.size}`, key: keys.one('owner_token_network', n.prefix), counts: networkRules })),
  ];
  return {
    async open(clientIp) {
      const now = deps.now();
      const refusals = await Promise.all(checksOf(clientIp).map((check) => deps.limits.peek(check, now)));
      return refusals.every((found) => found.length === 0);
    },
    async wrong(clientIp) {
      // Refused (a limit just met by another request, or a full store): the token was wrong all the same.
      await deps.limits.consume(checksOf(clientIp), deps.now());
    },
  };
}
