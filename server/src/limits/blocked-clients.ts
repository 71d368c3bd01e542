// The blocked-client cache, a decorator of the relay's Limiter for floods (app/relay-stores.ts and
// app/redis-stores.ts wrap the limiter with it). Only refusals are held, never "allowed", for at
// most `maxHoldMs` and never past their wait (held-refusals.ts), at most `maxEntries` keys.
import { networksOf } from './networks.ts';
import { clientKey } from './client-key.ts';
import type { Limiter } from './index.ts';
import { forgettingOnRefund } from './admission.ts';
import { HeldRefusals, type HeldRefusalOptions } from './held-refusals.ts';

export interface BlockedClientCacheOptions extends HeldRefusalOptions {
  /** The limiter's clock (LimiterDeps.now). */
  now?: () => number;
}

/**
 * The narrowest network of an address (IPv4 /24, IPv6 /56): a refusal by any of its networks' limits
 * holds for it, since every wider network contains it. Keyed apart from clients.
 */
function narrowestNetwork(clientIp: string): string | undefined {
  const narrowest = networksOf(clientIp)[0];
  return narrowest === undefined ? undefined : `network ${narrowest.prefix}`;
}

/**
 * `cacheBlockedClients` wraps the Limiter: `blockedClient` (the check before a request's body is
 * read, two peeks: the client's counts and its strikes) is answered from memory for a client found
 * blocked, until its wait is over (at most `maxHoldMs`, held-refusals.ts). A flood from one
 * blocked address (or IPv6 /64) then costs no store round trip at all, and is still refused while
 * the store is down. A refunded admission forgets its client, as refunds give places back.
 */
export function cacheBlockedClients(limiter: Limiter, options: BlockedClientCacheOptions = {}): Limiter {
  const now = options.now ?? Date.now;
  const held = new HeldRefusals(options);

  return {
    async admit(input) {
      return forgettingOnRefund(await limiter.admit(input), () => {
        held.forget(clientKey(input.clientIp));
        const network = narrowestNetwork(input.clientIp);
        if (network !== undefined) held.forget(network);
      });
    },
    surging: (site) => limiter.surging(site),
    chargeStrike: (clientIp) => limiter.chargeStrike(clientIp),
    numberHolds: (digits) => limiter.numberHolds(digits),
    heldNumber: (digits) => limiter.heldNumber(digits),
    refusedHeld: (clientIp, refusal) => limiter.refusedHeld(clientIp, refusal),
    forgetNumber: (digits) => limiter.forgetNumber(digits),
    async blockedClient(clientIp) {
      const key = clientKey(clientIp);
      const network = narrowestNetwork(clientIp);
      const at = now();
      const hit = held.get(key, at) ?? (network === undefined ? null : held.get(network, at));
      if (hit) return hit;
      const refusal = await limiter.blockedClient(clientIp);
      // A network over its limit blocks every client in it: the next new address in it is
      // answered from here too (a flood from a proxy pool of neighbours).
      if (refusal) held.hold(network !== undefined && refusal.reason.startsWith('network_') ? [key, network] : [key], refusal, at);
      return refusal;
    },
  };
}
