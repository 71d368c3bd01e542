// The site-wide caps act as a breaker: when one trips, every callback of that site is refused until
// its window has room again. The trip is logged once as an alert (not once per refused request)
// and shown in /metrics; the first accepted call after it says the breaker closed.
//
// Several relays (Redis, `shared`): the "open" state is also a key with a TTL (until the window has
// room), and only the relay that set it first logs the ALERT (and only the one that deletes it logs
// the close), so N relays give one alert line, not N. Each relay still keeps its own view for
// /metrics. When Redis cannot answer, a relay decides by its own memory, as one relay does.
import type { Logger } from '../log/index.ts';
import type { RelayMetrics } from '../metrics/relay-metrics.ts';
import type { SharedState } from '../shared-state/shared-state.ts';
import type { Refusal } from './limit-store.ts';
import { siteReasons } from './refusal.ts';
import type { LimitSettings } from '../config/limits.ts';

type Window = 'hourly' | 'daily';

export function createSiteBreaker(s: LimitSettings, log: Logger, metrics: RelayMetrics, shared?: SharedState) {
  const open = new Map<string, Set<Window>>();
  metrics.registry.onCollect(() => {
    for (const window of ['hourly', 'daily'] as const) {
      metrics.breakerOpen.set([...open.values()].some((w) => w.has(window)) ? 1 : 0, { window });
    }
  });
  const alert = (site: string, windows: Window[]) =>
    log.error('ALERT site callback cap reached: refusing callbacks until the window has room', { site, windows, hourlyCap: s.siteHourlyCap, dailyCap: s.siteDailyCap });
  const closed = (site: string) => log.warn('site callback cap has room again: accepting callbacks', { site });

  return {
    refused(site: string, refusals: readonly Refusal[]): void {
      const tripped = refusals.filter((r) => siteReasons[r.reason]).map((r) => ({ window: siteReasons[r.reason] as Window, waitMs: r.retryAfter * 1000 }));
      if (tripped.length === 0) return;
      const was = open.get(site);
      const fresh = tripped.filter((t) => !was?.has(t.window));
      open.set(site, new Set([...(was ?? []), ...tripped.map((t) => t.window)]));
      if (fresh.length === 0) return;
      if (!shared) {
        alert(
          site,
          fresh.map((t) => t.window),
        );
        return;
      }
      void Promise.all(fresh.map(async (t) => (((await shared.openBreaker(site, t.window, t.waitMs)) ?? true) ? t.window : null))).then((first) => {
        const windows = first.filter((w): w is Window => w !== null);
        if (windows.length > 0) alert(site, windows);
      });
    },
    admitted(site: string): void {
      if (!open.delete(site)) return;
      if (!shared) {
        closed(site);
        return;
      }
      void shared.closeBreaker(site).then((mine) => {
        if (mine ?? true) closed(site);
      });
    },
  };
}
