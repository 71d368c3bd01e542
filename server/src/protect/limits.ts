// The callback limits (design.md §6): per number, per client, per number prefix and site-wide.
// All are checked and counted in one atomic step of the store, so a refused request counts
// against nothing, and every refusal tells the visitor how long to wait (Retry-After).
// The site-wide caps act as a breaker: when one trips, every callback of that site is refused
// until its window has room again; the trip is logged once as an alert and shown in /metrics.
// A refusal counts against no limit, but it is a strike against the client that asked: a client
// that collects LIMIT_CLIENT_REFUSALS of them in its rate window (a bot hammering a number on
// cooldown) is refused outright, before its body is read, until the window has room again.
import { createHmac, createSecretKey } from 'node:crypto';
import { RelayError } from '../errors.ts';
import type { Logger } from '../log.ts';
import type { RelayMetrics } from '../metrics/relay-metrics.ts';
import { clientKey } from './client-key.ts';
import { RecentCache } from './recent-cache.ts';
import type { CountRule, LimitCheck, LimitReason, LimitStore, Receipt, Refusal } from './limit-store.ts';
import type { LimitSettings } from './settings.ts';

const DAY = 86_400;
const HOUR = 3_600;
/** Digits kept out of the prefix: the prefix key groups 10,000 neighbouring numbers. */
const PREFIX_HIDDEN_DIGITS = 4;

export interface AdmitInput {
  /** The destination in international digits (380501234567). */
  digits: string;
  clientIp: string;
  /** The site (origin) the request came from: caps are per site. */
  site: string;
}

export interface Admission {
  /** The request is over, whatever its outcome: frees the number's in-flight slot. */
  release(): Promise<void>;
  /** The service provably never got the request: everything counted is given back. */
  refund(): Promise<void>;
}

export interface Limiter {
  /** Counts the request or throws rate_limited / temporarily_unavailable. */
  admit(input: AdmitInput): Promise<Admission>;
  /**
   * Read-only and O(1): the refusal a request from this client would meet whatever it asked for
   * (its address, or IPv6 /64, is over its rate or daily limit, or has collected too many
   * refusals), or null. Counts nothing, not even
   * in /metrics: the caller counts the refusal it makes of it.
   */
  blockedClient(clientIp: string): Promise<Refusal | null>;
}

export interface LimiterDeps {
  settings: LimitSettings;
  store: LimitStore;
  hashSecret: string;
  log: Logger;
  metrics: RelayMetrics;
  /** How long an in-flight slot may be held at worst (a lost release must not block a number forever). */
  inFlightTtlMs: number;
  now?: () => number;
}

const siteReasons: Partial<Record<LimitReason, 'hourly' | 'daily'>> = { site_hourly_cap: 'hourly', site_daily_cap: 'daily' };

const messages: Record<LimitReason, string> = {
  number_cooldown: 'A call to this number was requested moments ago. Please wait a little before asking again.',
  number_daily: 'This number has had as many callback requests as we allow in a day. Please try again tomorrow.',
  number_in_flight: 'A call to this number is being placed right now. Please wait for it.',
  client_rate: 'Too many callback requests from your connection. Please wait a few minutes.',
  client_daily: 'Too many callback requests from your connection today. Please try again tomorrow.',
  client_numbers: 'Callbacks to more numbers were requested from your connection than we allow in a day.',
  client_refusals: 'Too many refused callback requests from your connection. Please wait a few minutes.',
  prefix_rate: 'Too many callback requests to similar numbers. Please wait a few minutes.',
  site_hourly_cap: 'The callback service has reached its limit for now. Please try again later or call us directly.',
  site_daily_cap: 'The callback service has reached its limit for today. Please try again later or call us directly.',
  limiter_full: 'The callback service is too busy right now. Please try again in a minute.',
};

/** A refusal by a limit: the public error, plus which limit (for the request's log line only). */
export class LimitRefusalError extends RelayError {
  readonly refusal: Refusal;

  constructor(refusal: Refusal) {
    const siteWide = refusal.reason in siteReasons || refusal.reason === 'limiter_full';
    super(siteWide ? 'temporarily_unavailable' : 'rate_limited', messages[refusal.reason], { retryAfter: refusal.retryAfter });
    this.refusal = refusal;
  }
}

export function refusalError(refusal: Refusal): LimitRefusalError {
  // Refusals are the hot path of a flood, and their stack says nothing: skip capturing it.
  const stackLimit = Error.stackTraceLimit;
  Error.stackTraceLimit = 0;
  try {
    return new LimitRefusalError(refusal);
  } finally {
    Error.stackTraceLimit = stackLimit;
  }
}

/** An admitted request's hold on its number; released once, whatever happens. */
class NumberAdmission implements Admission {
  private released = false;

  private readonly store: LimitStore;
  private readonly numberKey: string;
  private readonly receipt: Receipt;

  constructor(store: LimitStore, numberKey: string, receipt: Receipt) {

    this.store = store;
    this.numberKey = numberKey;
    this.receipt = receipt;

  }

  async release(): Promise<void> {
    if (this.released) return;
    this.released = true;
    await this.store.release(this.numberKey);
  }

  async refund(): Promise<void> {
    await this.store.refund(this.receipt);
    await this.release();
  }
}

/** Most keyed hashes remembered: a flood repeats a few subjects; hostile variety only evicts. */
const KEY_CACHE_SIZE = 10_000;

/**
 * Limiter keys: HMAC-SHA256 of table and subject with HASH_SECRET, 128 bits (32 hex digits) each.
 * A hash costs ~2 us; the same subjects come back again and again (a flood, a visitor's retries,
 * the site), so recent results are kept: a pure function of the secret and the subject, nothing
 * about the limits themselves is cached. `pair` gives two independent keys from one hash (its two
 * halves), for the two tables counting the same client.
 */
function createKeyCache(secret: string) {
  const hashes = new RecentCache<string, string>(KEY_CACHE_SIZE);
  // The secret as a key object once, rather than imported again for every hash (same HMAC).
  const key = createSecretKey(secret, 'utf8');
  function hash(table: string, subject: string): string {
    const id = `${table}\0${subject}`;
    let hex = hashes.get(id);
    if (hex === undefined) {
      hex = createHmac('sha256', key).update(id).digest('hex');
      hashes.set(id, hex);
    }
    return hex;
  }
  return {
    one: (table: string, subject: string): string => hash(table, subject).slice(0, 32),
    pair: (table: string, subject: string): [string, string] => {
      const hex = hash(table, subject);
      return [hex.slice(0, 32), hex.slice(32, 64)];
    },
  };
}

export function createLimiter(deps: LimiterDeps): Limiter {
  const { settings: s, store, log, metrics } = deps;
  const now = deps.now ?? Date.now;
  const open = new Map<string, Set<'hourly' | 'daily'>>();
  const keys = createKeyCache(deps.hashSecret);

  metrics.registry.onCollect(() => {
    for (const window of ['hourly', 'daily'] as const) {
      metrics.breakerOpen.set([...open.values()].some((w) => w.has(window)) ? 1 : 0, { window });
    }
    for (const [table, size] of Object.entries(store.sizes())) metrics.limiterKeys.set(size, { table });
  });

  // The rules come from the settings, so they are made once; only keys change per request.
  const numberCounts: readonly CountRule[] = [
    ...(s.numberCooldownSec > 0 ? [{ reason: 'number_cooldown' as const, limit: 1, windowSec: s.numberCooldownSec }] : []),
    { reason: 'number_daily', limit: s.numberDaily, windowSec: DAY },
  ];
  const clientCounts: readonly CountRule[] = [
    { reason: 'client_rate', limit: s.clientRate, windowSec: s.clientRateWindowSec },
    { reason: 'client_daily', limit: s.clientDaily, windowSec: DAY },
  ];
  const prefixCounts: readonly CountRule[] = [{ reason: 'prefix_rate', limit: s.prefixRate, windowSec: s.prefixWindowSec }];
  const strikeCounts: readonly CountRule[] = [{ reason: 'client_refusals', limit: s.clientRefusals, windowSec: s.clientRateWindowSec }];
  const siteCounts: readonly CountRule[] = [
    { reason: 'site_hourly_cap', limit: s.siteHourlyCap, windowSec: HOUR },
    { reason: 'site_daily_cap', limit: s.siteDailyCap, windowSec: DAY },
  ];

  /** The client's two keys: [0] for its counts (and, in their own table, its strikes), [1] for its numbers. */
  const clientKeys = (clientIp: string) => keys.pair('client', clientKey(clientIp));

  function plan(input: AdmitInput, numberKey: string, client: [string, string]): LimitCheck[] {
    return [
      { table: 'number', key: numberKey, counts: numberCounts },
      { table: 'client', key: client[0], counts: clientCounts },
      { table: 'client_numbers', key: client[1], distinct: { reason: 'client_numbers', limit: s.clientNumbersDaily, windowSec: DAY, member: numberKey } },
      { table: 'prefix', key: keys.one('prefix', input.digits.slice(0, Math.max(1, input.digits.length - PREFIX_HIDDEN_DIGITS))), counts: prefixCounts },
      { table: 'site', key: keys.one('site', input.site), counts: siteCounts },
    ];
  }

  function noteSite(site: string, refusals: readonly Refusal[]): void {
    const tripped = new Set(refusals.map((r) => siteReasons[r.reason]).filter((w): w is 'hourly' | 'daily' => !!w));
    if (tripped.size === 0) return;
    const was = open.get(site);
    const fresh = [...tripped].filter((w) => !was?.has(w));
    // One alert line when a breaker opens, not one per refused request.
    if (fresh.length > 0) log.error('ALERT site callback cap reached: refusing callbacks until the window has room', { site, windows: fresh, hourlyCap: s.siteHourlyCap, dailyCap: s.siteDailyCap });
    open.set(site, new Set([...(was ?? []), ...tripped]));
  }

  /**
   * A refusal that is the client's doing (not a site cap, not a full store) is a strike against it.
   * Recorded like an accepted request in a table of its own, so it counts against no real limit;
   * once the client is at its strike limit nothing more is recorded (it is refused up front then).
   */
  async function strike(client: [string, string], reason: LimitReason, at: number): Promise<void> {
    if (reason in siteReasons || reason === 'limiter_full') return;
    try {
      await store.consume([{ table: 'client_refusals', key: client[0], counts: strikeCounts }], at);
    } catch {
      // A strike the store could not take only delays the block; the refusal stands either way.
    }
  }

  function noteSiteAdmitted(site: string): void {
    if (open.delete(site)) log.warn('site callback cap has room again: accepting callbacks', { site });
  }

  return {
    async admit(input) {
      const numberKey = keys.one('number', input.digits);
      const client = clientKeys(input.clientIp);
      const at = now();
      if (!(await store.acquire(numberKey, s.numberInFlight, deps.inFlightTtlMs, at))) {
        const refusal: Refusal = { reason: 'number_in_flight', retryAfter: Math.max(1, Math.ceil(deps.inFlightTtlMs / 2000)) };
        metrics.limiterRefusals.inc({ reason: refusal.reason });
        await strike(client, refusal.reason, at);
        throw refusalError(refusal);
      }
      let decision;
      try {
        decision = await store.consume(plan(input, numberKey, client), at);
      } catch (err) {
        await store.release(numberKey);
        throw err;
      }
      if (!decision.ok) {
        await store.release(numberKey);
        noteSite(input.site, decision.refusals);
        // The visitor can only succeed once every limit has room: report the longest wait.
        const worst = decision.refusals.reduce((a, b) => (b.retryAfter > a.retryAfter ? b : a));
        metrics.limiterRefusals.inc({ reason: worst.reason });
        await strike(client, worst.reason, at);
        throw refusalError(worst);
      }
      noteSiteAdmitted(input.site);
      return new NumberAdmission(store, numberKey, decision.receipt);
    },
    async blockedClient(clientIp) {
      const key = clientKeys(clientIp)[0];
      const at = now();
      const over = await store.peek({ table: 'client', key, counts: clientCounts }, at);
      const struck = await store.peek({ table: 'client_refusals', key, counts: strikeCounts }, at);
      if (over.length === 0 && struck.length === 0) return null;
      return [...over, ...struck].reduce((a, b) => (b.retryAfter > a.retryAfter ? b : a));
    },
  };
}
