// A surge: calls accepted much faster than usual (SURGE_CALLS within SURGE_WINDOW_SECONDS, or
// SURGE_CAP_PERCENT of the hourly cap within the hour), the sign of a distributed flood, met before the
// site breaker refuses everyone: the CAPTCHA for everyone, and the networks that made most of the
// calls refused. The counts live in the limit store, so relays sharing it see one surge. The rules in
// full: limits/README.md.
import type { Logger } from '../log/index.ts';
import type { LimitKeys } from './keys.ts';
import type { CountRule, LimitCheck, LimitStore, Refusal } from './limit-store.ts';
import { widestNetwork } from './networks.ts';
import type { SurgeSettings } from '../config/limits.ts';
import { EXACT_LOG_MAX } from './memory/layout.ts';
import { worstOf } from './refusal.ts';

export function createSurge(s: SurgeSettings, store: LimitStore, keys: LimitKeys, log: Logger) {
  const fastCounts: readonly CountRule[] = [{ reason: 'site_surge', limit: Math.max(1, s.calls), windowSec: s.windowSec, exact: s.calls <= EXACT_LOG_MAX }];
  const hourlyCounts: readonly CountRule[] = [{ reason: 'site_surge', limit: Math.max(1, s.hourlyCalls), windowSec: 3_600, exact: s.hourlyCalls <= EXACT_LOG_MAX }];
  const networkCounts: readonly CountRule[] = [{ reason: 'surge_network', limit: s.networkCalls, windowSec: s.windowSec }];
  /** Sites last seen surging: the start and the end of a surge are logged once each. */
  const surging = new Set<string>();

  // Two tables, each recorded on its own: one trigger at its figure must not stop the other counting.
  const siteChecks = (site: string): LimitCheck[] => [
    ...(s.calls > 0 ? [{ table: 'surge_site', key: keys.one('surge_site', site), counts: fastCounts }] : []),
    ...(s.hourlyCalls > 0 ? [{ table: 'surge_site_hourly', key: keys.one('surge_site', site), counts: hourlyCounts }] : []),
  ];
  const networkCheck = (clientIp: string): LimitCheck | null => {
    const network = widestNetwork(clientIp);
    return network ? { table: 'surge_network', key: keys.one('surge_network', network.prefix), counts: networkCounts } : null;
  };

  /** Null when the site is not surging; else how long the surge lasts at least (its retryAfter). */
  async function surgeOf(site: string, at: number): Promise<Refusal | null> {
    // Side by side: with Redis, one script for both (the store gathers a tick's peeks).
    const met = (await Promise.all(siteChecks(site).map((check) => store.peek(check, at)))).flat();
    // Surging while either trigger holds: until the later of the two lets go.
    const on = met.length === 0 ? undefined : worstOf(met);
    if (on && !surging.has(site)) {
      surging.add(site);
      log.error('ALERT site callbacks surging: CAPTCHA for everyone (with TURNSTILE_REQUIRED=surge), refusing the networks that produced the surge', {
        site,
        calls: s.calls,
        windowSeconds: s.windowSec,
        hourlyCalls: s.hourlyCalls,
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
      if (s.calls === 0 && s.hourlyCalls === 0) return;
      const checks = [...siteChecks(site), networkCheck(clientIp)].filter((check) => check !== null);
      await Promise.all(checks.map((check) => store.consume([check], at).catch(() => undefined)));
    },
  };
}
