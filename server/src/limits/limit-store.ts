// The storage behind the callback limits, as an interface a shared store can implement too. One
// relay keeps limits in memory (memory/limit-store.ts) or the embedded file (sqlite/); several relays
// behind one balancer share Redis (redis/), where each plan is one Lua script, so every check and
// every update happen atomically. Keys are keyed hashes (HMAC with HASH_SECRET) made by the limiter:
// a store never sees a number or an address.

/** Why a request was refused; also the metric label. */
export type LimitReason =
  | 'number_cooldown'
  | 'number_daily'
  | 'number_in_flight'
  | 'client_rate'
  | 'client_daily'
  | 'client_numbers'
  | 'client_refusals'
  | 'prefix_rate'
  | 'network_rate'
  | 'network_daily'
  | 'network_refusals'
  | 'site_surge'
  | 'surge_network'
  | 'site_hourly_cap'
  | 'site_daily_cap'
  | 'limiter_full';

/** At most `limit` accepted requests in any `windowSec` (sliding). */
export interface CountRule {
  reason: LimitReason;
  limit: number;
  windowSec: number;
  /**
   * Must be counted exactly (a sliding log), even where a store approximates large limits (the
   * memory store's weighted counters). For documented guarantees such as "at most 20 an hour from
   * one network"; the limiter keeps such limits at most 64.
   */
  exact?: boolean;
}

/** At most `limit` distinct members per `windowSec` (window anchored at the first member). */
export interface DistinctRule {
  reason: LimitReason;
  limit: number;
  windowSec: number;
  /** Keyed hash of the member (a number), hex. */
  member: string;
}

export interface LimitCheck {
  /**
   * Which family of keys: 'number', 'client', 'client_numbers', 'client_refusals', 'prefix', 'site',
   * 'network_ipv4_24', 'network_ipv6_56', 'network_ipv6_48', 'network_refusals', 'surge_site',
   * 'surge_site_hourly', 'surge_network'.
   */
  table: string;
  /** Keyed hash of the subject, hex (at least 16 digits). */
  key: string;
  counts?: readonly CountRule[];
  distinct?: DistinctRule;
}

export interface Refusal {
  reason: LimitReason;
  /** Whole seconds until this limit would let the request through. */
  retryAfter: number;
}

/** Opaque: hands back to `refund` exactly what `consume` recorded. */
export interface Receipt {
  readonly at: number;
  readonly entries: readonly unknown[];
}

export type LimitDecision = { ok: true; receipt: Receipt } | { ok: false; refusals: Refusal[] };

export interface LimitStore {
  /**
   * All or nothing: when every check passes, every one records the request; when any fails,
   * nothing changes and every failing check is reported. A store that cannot take a new key
   * (at capacity) refuses with 'limiter_full': limits fail closed, never open.
   */
  consume(checks: readonly LimitCheck[], nowMs: number): Promise<LimitDecision>;
  /**
   * Read-only: the refusals `check` alone would meet now, counting and changing nothing, in O(1)
   * (one key, its rules). An unknown key or table meets none. Lets the relay refuse a client that
   * is already over its limit before it reads the request's body.
   */
  peek(check: LimitCheck, nowMs: number): Promise<Refusal[]>;
  /**
   * A refused request's strike (limits/strikes.ts): what consume([check]) does for one check, for
   * a caller that does not wait to know more than whether it was lost. A store may gather strikes
   * and write them a moment later (the Redis store: at most `strikeFlushMs`, summed per record);
   * its own `peek` counts the ones it still holds. Resolves false when the store had no room for
   * it (full), rejects when the store is unavailable. Without it the limiter calls `consume`.
   */
  strike?(check: LimitCheck, nowMs: number): Promise<boolean>;
  /** Undoes a consume whose request provably never reached the service. */
  refund(receipt: Receipt): Promise<void>;
  /** Takes one of `max` in-flight slots for `key`; the slot frees itself after `ttlMs` at worst. */
  acquire(key: string, max: number, ttlMs: number, nowMs: number): Promise<boolean>;
  release(key: string): Promise<void>;
  /** Keys held, by table (for /metrics). */
  sizes(): Record<string, number>;
  /**
   * From memory, no round trip: what `peek` of each check (all of BLOCKING_TABLES) would refuse now,
   * as far as the store's copy of the blocked subjects knows, or null when it has no copy fresh
   * enough to answer (the caller then peeks). A shared store's copy sees another relay's blocks a
   * moment late (the Redis store: ~100 ms), never a call it should not place: consume still judges
   * every call.
   */
  blockedNow?(checks: readonly LimitCheck[], nowMs: number): Refusal[] | null;
}

/**
 * Tables whose writes no call waits on: the strikes of refused requests (client and network) and
 * the surge records of accepted ones. A durable store may write them a moment later (a crash loses
 * at most that moment of them); every other table counts an accepted call, which must be stored
 * before the call is placed.
 */
export const DEFERRABLE_TABLES: readonly string[] = ['client_refusals', 'network_refusals', 'surge_site', 'surge_site_hourly', 'surge_network'];

/**
 * Tables whose limits refuse a client whatever it asks for, before its body is read
 * (Limiter.blockedClient): its own counts, its networks', and the strikes against both.
 */
export const BLOCKING_TABLES: ReadonlySet<string> = new Set(['client', 'client_refusals', 'network_refusals', 'network_ipv4_24', 'network_ipv6_56', 'network_ipv6_48']);
