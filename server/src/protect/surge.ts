// A surge: calls accepted much faster than usual, the sign of a distributed flood, met before the
// site breaker refuses everyone. "Much faster than usual" is SURGE_CALLS accepted calls of one site
// within SURGE_WINDOW_SECONDS (by default a fifth of SITE_HOURLY_CAP in 5 minutes: a pace that
// would use the hourly cap up in 25 minutes; a site's usual pace is far below its cap). While a
// site surges:
//   - the CAPTCHA is required for everyone (TURNSTILE_REQUIRED=surge; with "always" it is anyway);
//   - a network (IPv4 /24, IPv6 /48) that produced SURGE_NETWORK_CALLS or more of the window's calls
//     is refused (429, reason surge_network) until its calls leave the window or the surge ends;
//   - visitors from other networks are served as before, as long as the site caps allow.
// Both counts live in the limit store (tables surge_site and surge_network), so several relays
// sharing a store see one surge. A count at its figure records nothing more (the store refuses it),
// which is all a threshold needs.
import type { Logger } from '../log.ts';
import type { LimitKeys } from './limit-keys.ts';
import type { CountRule, LimitCheck, LimitStore, Refusal } from './limit-store.ts';
import { widestNetwork } from './networks.ts';
import type { SurgeSettings } from './settings.ts';
import { EXACT_LOG_MAX } from './memory-layout.ts';

export function createSurge(s: SurgeSettings, store: LimitStore, keys: LimitKeys, log: Logger) {
  const siteCounts: readonly CountRule[] = [{ reason: 'site_surge', limit: Math.max(1, s.calls), windowSec: s.windowSec, exact: s.calls <= EXACT_LOG_MAX }];
  const networkCounts: readonly CountRule[] = [{ reason: 'surge_network', limit: s.networkCalls, windowSec: s.windowSec }];
  /** Sites last seen surging: the start and the end of a surge are logged once each. */
  const surging = new Set<string>();

  const siteCheck = (site: string): LimitCheck => ({ table: 'surge_site', key: keys.one('surge_site', site), counts: siteCounts });
  const networkCheck = (clientIp: string): LimitCheck | null => {
    const network = widestNetwork(clientIp);
    return network ? { table: 'surge_network', key: keys.one('surge_network', network.prefix), counts: networkCounts } : null;
  };

  /** Null when the site is not surging; else how long the surge lasts at least (its retryAfter). */
  async function surgeOf(site: string, at: number): Promise<Refusal | null> {
    if (s.calls === 0) return null;
    const [on] = await store.peek(siteCheck(site), at);
    if (on && !surging.has(site)) {
      surging.add(site);
      log.error('ALERT site callbacks surging: CAPTCHA for everyone (with TURNSTILE_REQUIRED=surge), refusing the networks that produced the surge', {
        site,
        calls: s.calls,
        windowSeconds: s.windowSec,
      });
    } else if (!on && surging.delete(site)) {
      log.warn('site callback surge over', { site });
    }
    return on ?? null;
  }

  return {
    async active(site: string, at: number): Promise<boolean> {
      return (await surgeOf(site, at)) !== null;
    },
    /** The refusal a request from this address meets because of a surge, or null. */
    async refusalFor(site: string, clientIp: string, at: number): Promise<Refusal | null> {
      const surge = await surgeOf(site, at);
      const check = surge && networkCheck(clientIp);
      if (!surge || !check) return null;
      const [over] = await store.peek(check, at);
      return over ? { reason: 'surge_network', retryAfter: Math.min(over.retryAfter, surge.retryAfter) } : null;
    },
    /** Counts an accepted call for its site and its network. Each on its own: one at its figure does not stop the other. */
    async record(site: string, clientIp: string, at: number): Promise<void> {
      if (s.calls === 0) return;
      const checks = [siteCheck(site), networkCheck(clientIp)];
      for (const check of checks) if (check) await store.consume([check], at).catch(() => undefined);
    },
  };
}
