// Two decorators for floods, one per layer; a relay uses either or both.
//
// `createRefusalCache` wraps a LimitStore: it remembers, in process memory, that a peek found a client
// blocked, and answers the same refusal again until its wait is over (at most `maxHoldMs`), so a
// blocked client hammering the relay costs no round trip to a shared store. Only refusals are
// remembered, never "allowed", so it cannot let anything through that the store would refuse;
// the worst it can do is refuse for at most `maxHoldMs` a client that a refund has just freed,
// and a refund therefore forgets everything it holds.
//
// Bounded: at most `maxEntries` keys (two generations, protect/recent-cache.ts), whatever a flood
// of distinct clients sends.
import { networksOf } from '../protect/networks.ts';
import { clientKey } from '../protect/client-key.ts';
import type { LimitCheck, LimitStore, Refusal } from '../protect/limit-store.ts';
import type { Limiter } from '../protect/limits.ts';
import { RecentCache } from '../protect/recent-cache.ts';
import { HeldRefusals } from '../protect/held-refusals.ts';

export interface RefusalCacheOptions {
  /** Longest a refusal is answered from memory (default 3 s). */
  maxHoldMs?: number;
  /** Most clients remembered (default 10,000). */
  maxEntries?: number;
}

interface Held {
  /** When the store was asked (the caller's clock, ms). */
  asked: number;
  /** Until when (the caller's clock, ms) this answer stands. */
  until: number;
  /** When each refusal's wait ends (ms). */
  refusals: Array<{ reason: Refusal['reason']; endsAt: number }>;
}

export type RefusalCachedStore = LimitStore & {
  /** Refusals held now (for tests and metrics). */
  cachedRefusals(): number;
};

export function createRefusalCache(store: LimitStore, options: RefusalCacheOptions = {}): RefusalCachedStore {
  const maxHoldMs = options.maxHoldMs ?? 3_000;
  const maxEntries = options.maxEntries ?? 10_000;
  let held = new RecentCache<string, Held>(maxEntries);
  /** Rule parts of cache keys, per rule array (the limiter passes the same arrays every time). */
  const ruleKeys = new WeakMap<readonly object[], string>();
  /** A refusal belongs to the subject, its rules and, for a distinct rule, the member asked about. */
  function keyOf(check: LimitCheck): string {
    let rules = '';
    if (check.counts) {
      rules = ruleKeys.get(check.counts) ?? check.counts.map((r) => `${r.limit}/${r.windowSec}`).join(',');
      ruleKeys.set(check.counts, rules);
    }
    const d = check.distinct;
    return `${check.table}\0${check.key}\0${rules}${d ? `\0${d.limit}/${d.windowSec}/${d.member}` : ''}`;
  }

  return {
    consume: (checks, nowMs) => store.consume(checks, nowMs),
    async peek(check, nowMs) {
      const key = keyOf(check);
      const hit = held.get(key);
      // Only within [asked, until): a clock that went back asks the store again.
      if (hit && nowMs < hit.until && nowMs >= hit.asked) {
        return hit.refusals.map((r) => ({ reason: r.reason, retryAfter: Math.max(1, Math.ceil((r.endsAt - nowMs) / 1000)) }));
      }
      const refusals = await store.peek(check, nowMs);
      if (refusals.length > 0) {
        // retryAfter is whole seconds rounded up: hold one second less, so a cached refusal never
        // outlives the store's own.
        const shortest = Math.min(...refusals.map((r) => r.retryAfter));
        const until = nowMs + Math.min(maxHoldMs, (shortest - 1) * 1000);
        if (until > nowMs) held.set(key, { asked: nowMs, until, refusals: refusals.map((r) => ({ reason: r.reason, endsAt: nowMs + r.retryAfter * 1000 })) });
      }
      return refusals;
    },
    async refund(receipt) {
      held = new RecentCache<string, Held>(maxEntries);
      await store.refund(receipt);
    },
    acquire: (key, max, ttlMs, nowMs) => store.acquire(key, max, ttlMs, nowMs),
    release: (key) => store.release(key),
    sizes: () => store.sizes(),
    cachedRefusals: () => held.size,
  };
}

export interface BlockedClientCacheOptions extends RefusalCacheOptions {
  /** The limiter's clock (LimiterDeps.now). */
  now?: () => number;
}

/**
 * `cacheBlockedClients` wraps the Limiter: `blockedClient` (the check before a request's body is
 * read, two peeks: the client's counts and its strikes) is answered from memory for a client found
 * blocked, until its wait is over (at most `maxHoldMs`, protect/held-refusals.ts). A flood from one
 * blocked address (or IPv6 /64) then costs no store round trip at all, and is still refused while
 * the store is down. A refunded admission forgets its client, as refunds give places back.
 */

/**
 * The narrowest network of an address (IPv4 /24, IPv6 /56): a refusal by any of its networks' limits
 * holds for it, since every wider network contains it. Keyed apart from clients.
 */
function narrowestNetwork(clientIp: string): string | undefined {
  const narrowest = networksOf(clientIp)[0];
  return narrowest === undefined ? undefined : `network ${narrowest.prefix}`;
}

export function cacheBlockedClients(limiter: Limiter, options: BlockedClientCacheOptions = {}): Limiter {
  const now = options.now ?? Date.now;
  const held = new HeldRefusals(options);

  return {
    async admit(input) {
      const admission = await limiter.admit(input);
      return {
        release: () => admission.release(),
        async refund() {
          held.forget(clientKey(input.clientIp));
          const network = narrowestNetwork(input.clientIp);
          if (network !== undefined) held.forget(network);
          await admission.refund();
        },
      };
    },
    surging: (site) => limiter.surging(site),
    chargeStrike: (clientIp) => limiter.chargeStrike(clientIp),
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
