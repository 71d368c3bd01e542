// The site-wide caps act as a breaker: when one trips, every callback of that site is refused until
// its window has room again. The trip is logged once as an alert (not once per refused request)
// and shown in /metrics; the first accepted call after it says the breaker closed.
import type { Logger } from '../log.ts';
import type { RelayMetrics } from '../metrics/relay-metrics.ts';
import type { Refusal } from './limit-store.ts';
import { siteReasons } from './limit-refusal.ts';
import type { LimitSettings } from './settings.ts';

export function createSiteBreaker(s: LimitSettings, log: Logger, metrics: RelayMetrics) {
  const open = new Map<string, Set<'hourly' | 'daily'>>();
  metrics.registry.onCollect(() => {
    for (const window of ['hourly', 'daily'] as const) {
      metrics.breakerOpen.set([...open.values()].some((w) => w.has(window)) ? 1 : 0, { window });
    }
  });
  return {
    refused(site: string, refusals: readonly Refusal[]): void {
      const tripped = new Set(refusals.map((r) => siteReasons[r.reason]).filter((w): w is 'hourly' | 'daily' => !!w));
      if (tripped.size === 0) return;
      const was = open.get(site);
      const fresh = [...tripped].filter((w) => !was?.has(w));
      if (fresh.length > 0) log.error('ALERT site callback cap reached: refusing callbacks until the window has room', { site, windows: fresh, hourlyCap: s.siteHourlyCap, dailyCap: s.siteDailyCap });
      open.set(site, new Set([...(was ?? []), ...tripped]));
    },
    admitted(site: string): void {
      if (open.delete(site)) log.warn('site callback cap has room again: accepting callbacks', { site });
    },
  };
}
