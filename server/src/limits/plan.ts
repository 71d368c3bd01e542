// The checks one request is counted against (docs/operations.md, Limits): per number, per client (address, or
// IPv6 /64), per network it could rotate through (networks.ts), per number prefix and per site.
// The rules come from the settings, so they are made once; only the keys change per request.
import { clientKey } from './client-key.ts';
import type { LimitKeys } from './keys.ts';
import type { CountRule, LimitCheck } from './limit-store.ts';
import { networksOf, type NetworkSize } from './networks.ts';
import type { LimitSettings } from '../config/limits.ts';
import { RecentCache } from '../lib/recent-cache.ts';

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
  /**
   * Which limits to count. 'all' (default): a call placed now. A call held for later splits them:
   * 'visitor' when it is booked (the client, its numbers and its networks: who asks), and
   * 'destination' when it is placed (the number, its prefix and the site: what is rung, and what
   * it costs), under the limits of that moment.
   */
  part?: AdmitPart;
}

export type AdmitPart = 'all' | 'visitor' | 'destination';

/** The limit tables each part counts against. */
const destinationTables = new Set(['number', 'prefix', 'site']);
export const countsIn = (part: AdmitPart, table: string): boolean => part === 'all' || (part === 'destination') === destinationTables.has(table);

/** One client's keys: its counts and strikes ([0]), its numbers ([1]), and each of its networks. */
export interface ClientKeys {
  client: [string, string];
  networks: Array<{ size: NetworkSize; key: string }>;
  /** Its blocking and strike checks, made when first asked for and kept with the keys (keysOf). */
  blocking?: readonly LimitCheck[];
  strikes?: readonly LimitCheck[];
  /** Both of those, as one look asks for them (lookChecks). */
  look?: readonly LimitCheck[];
}

const prefixOf = (digits: string) => digits.slice(0, Math.max(1, digits.length - PREFIX_HIDDEN_DIGITS));

export function createLimitPlan(s: LimitSettings, keys: LimitKeys) {
  const recentKeys = new RecentCache<string, ClientKeys>(4_096);
  const numberCounts: readonly CountRule[] = [
    ...(s.numberCooldownSec > 0 ? [{ reason: 'number_cooldown' as const, limit: 1, windowSec: s.numberCooldownSec }] : []),
    { reason: 'number_daily', limit: s.numberDaily, windowSec: DAY },
  ];
  const clientCounts: readonly CountRule[] = [
    { reason: 'client_rate', limit: s.clientRate, windowSec: s.clientRateWindowSec },
    { reason: 'client_daily', limit: s.clientDaily, windowSec: DAY },
  ];
  const prefixCounts: readonly CountRule[] = [{ reason: 'prefix_rate', limit: s.prefixRate, windowSec: s.prefixWindowSec }];
  const siteCounts: readonly CountRule[] = [
    { reason: 'site_hourly_cap', limit: s.siteHourlyCap, windowSec: HOUR },
    { reason: 'site_daily_cap', limit: s.siteDailyCap, windowSec: DAY },
  ];
  // The hourly network limit is exact: it is the documented guarantee ("at most N an hour from
  // one /48"); the daily one may be approximate like every other daily count.
  const networkRules = (size: NetworkSize): readonly CountRule[] => {
    const { hourly, daily } = s.networks[size];
    const rules: CountRule[] = [];
    if (hourly > 0) rules.push({ reason: 'network_rate', limit: hourly, windowSec: HOUR, exact: true });
    if (daily > 0) rules.push({ reason: 'network_daily', limit: daily, windowSec: DAY });
    return rules;
  };
  const networkCounts: Record<NetworkSize, readonly CountRule[]> = { ipv4_24: networkRules('ipv4_24'), ipv6_56: networkRules('ipv6_56'), ipv6_48: networkRules('ipv6_48') };
  // Strikes share the client-rate window: a refusal is forgiven as soon as an acceptance would be.
  const clientStrikes: readonly CountRule[] = [{ reason: 'client_refusals', limit: s.clientRefusals, windowSec: s.clientRateWindowSec }];
  const networkStrikes: readonly CountRule[] = [{ reason: 'network_refusals', limit: s.networkRefusals, windowSec: s.clientRateWindowSec }];

  const networkCheck = (n: ClientKeys['networks'][number]): LimitCheck | null =>
    networkCounts[n.size].length > 0 ? { table: `network_${n.size}`, key: n.key, counts: networkCounts[n.size] } : null;

  return {
    numberKey: (digits: string) => keys.one('number', digits),
    /** Forgets the remembered hashes of a number and its prefix (an erased number); answers how many. */
    forgetNumber: (digits: string) => Number(keys.forget('number', digits)) + Number(keys.forget('prefix', prefixOf(digits))),
    /** The number's own counts (cooldown, daily), as admitChecks counts them. */
    numberCheck: (digits: string): LimitCheck => ({ table: 'number', key: keys.one('number', digits), counts: numberCounts }),
    /** Kept for the last few thousand addresses: a request asks twice (before and after its body). */
    keysOf(clientIp: string): ClientKeys {
      let k = recentKeys.get(clientIp);
      if (k === undefined) {
        k = {
          client: keys.pair('client', clientKey(clientIp)),
          networks: networksOf(clientIp).map((n) => ({ size: n.size, key: keys.one('network', n.prefix) })),
        };
        recentKeys.set(clientIp, k);
      }
      return k;
    },
    /** Everything an accepted request counts against, all or nothing. */
    admitChecks(input: AdmitInput, numberKey: string, k: ClientKeys): LimitCheck[] {
      const checks: LimitCheck[] = [
        { table: 'number', key: numberKey, counts: numberCounts },
        { table: 'client', key: k.client[0], counts: clientCounts },
        { table: 'client_numbers', key: k.client[1], distinct: { reason: 'client_numbers', limit: s.clientNumbersDaily, windowSec: DAY, member: numberKey } },
        { table: 'prefix', key: keys.one('prefix', prefixOf(input.digits)), counts: prefixCounts },
        { table: 'site', key: keys.one('site', input.site), counts: siteCounts },
      ];
      for (const n of k.networks) {
        const check = networkCheck(n);
        if (check) checks.push(check);
      }
      const part = input.part ?? 'all';
      return part === 'all' ? checks : checks.filter((check) => countsIn(part, check.table));
    },
    /**
     * The counts that block a client whatever it asks for: its own, and its networks'. Made once per
     * client: a request asks for them before its body, and for its strikes after (a flood's new
     * client does both), so they live as long as the client's keys.
     */
    blockingChecks(k: ClientKeys): readonly LimitCheck[] {
      if (k.blocking === undefined) {
        const checks: LimitCheck[] = [{ table: 'client', key: k.client[0], counts: clientCounts }];
        for (const n of k.networks) {
          const check = networkCheck(n);
          if (check) checks.push(check);
        }
        k.blocking = checks;
      }
      return k.blocking;
    },
    /** Where a refusal is a strike: against the client and against each of its networks (made once per client, as above). */
    strikeChecks(k: ClientKeys): readonly LimitCheck[] {
      k.strikes ??= [
        { table: 'client_refusals', key: k.client[0], counts: clientStrikes },
        ...k.networks.map((n): LimitCheck => ({ table: 'network_refusals', key: n.key, counts: networkStrikes })),
      ];
      return k.strikes;
    },
    /** Everything the look before a request's body asks about: the blocking checks and the strikes (made once per client). */
    lookChecks(k: ClientKeys): readonly LimitCheck[] {
      k.look ??= [...this.blockingChecks(k), ...this.strikeChecks(k)];
      return k.look;
    },
  };
}

export type LimitPlan = ReturnType<typeof createLimitPlan>;
