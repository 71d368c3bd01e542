// Limiter keys: HMAC-SHA256 of table and subject with HASH_SECRET, 128 bits (32 hex digits) each,
// so a store never sees a number or an address. A hash costs ~2 us; the same subjects come back
// again and again (a flood, a visitor's retries, the site), so recent results are kept: a pure
// function of the secret and the subject, nothing about the limits themselves is cached. `pair`
// gives two independent keys from one hash (its two halves), for the two tables counting the
// same client; it keeps nothing, as its one caller (plan.ts keysOf) keeps its answers per
// address, and a flood from ever-new addresses would only fill this cache with keys never asked
// for again.
import { createHmac, createSecretKey } from 'node:crypto';
import { RecentCache } from '../lib/recent-cache.ts';

/** Most keyed hashes remembered: a flood repeats a few subjects; hostile variety only evicts. */
const KEY_CACHE_SIZE = 10_000;

export interface LimitKeys {
  one(table: string, subject: string): string;
  pair(table: string, subject: string): [string, string];
  /** Drops the remembered hash of `subject` (an erased number: the cache's id holds its digits); true when it was there. */
  forget(table: string, subject: string): boolean;
}

export function createLimitKeys(secret: string): LimitKeys {
  const hashes = new RecentCache<string, string>(KEY_CACHE_SIZE);
  // The secret as a key object once, rather than imported again for every hash (same HMAC).
  const key = createSecretKey(secret, 'utf8');
  const hmac = (id: string) => createHmac('sha256', key).update(id).digest('hex');
  function cachedHash(table: string, subject: string): string {
    const id = `${table}\0${subject}`;
    let hex = hashes.get(id);
    if (hex === undefined) {
      hex = hmac(id);
      hashes.set(id, hex);
    }
    return hex;
  }
  return {
    one: (table, subject) => cachedHash(table, subject).slice(0, 32),
    pair: (table, subject) => {
      const hex = hmac(`${table}\0${subject}`);
      return [hex.slice(0, 32), hex.slice(32, 64)];
    },
    forget: (table, subject) => hashes.delete(`${table}\0${subject}`),
  };
}
