// What the page's consent platform says about the two purposes the widget cares for: analytics
// (reading the tracking cookies rngst2, rngst and _ga, and keeping the invitation's memory in the
// site's storage) and ads (only told to the owner). Each reader answers undefined when the page has
// no such platform, and 'unknown' for a purpose it has no answer for yet. The platforms' own APIs,
// read as they are now (the visitor may change their mind at any time). None of them is ours: a
// missing member is no answer, and the caller catches what a broken one throws.
import type { ConsentState } from '../../../server/src/contract.ts';

/** [analytics, ads]. */
export type Signal = [analytics: ConsentState, ads: ConsentState];

// The platforms' globals: anything or nothing.
// biome-ignore lint/suspicious/noExplicitAny: a page's globals have no type
export type PageWindow = Window & Record<string, any>;

/** true or 'granted' → granted; false or 'denied' → denied; anything else → unknown. */
export const stateOf = (value: unknown): ConsentState => (value === true || value === 'granted' ? 'granted' : value === false || value === 'denied' ? 'denied' : 'unknown');
const signal = (analytics?: unknown, ads?: unknown): Signal => [stateOf(analytics), stateOf(ads)];

/** `dialback('consent', { analytics, ads })`, each true or 'granted', false or 'denied'. */
export const told = (value: unknown): Signal | undefined => (value && typeof value === 'object' ? signal((value as PageWindow).analytics, (value as PageWindow).ads) : undefined);

/** Cookiebot: `Cookiebot.consent.statistics` and `.marketing`, once the visitor has answered (`hasResponse`). */
export function cookiebot({ Cookiebot: bot }: PageWindow): Signal | undefined {
  if (!bot) return undefined;
  const consent = Object(bot.consent);
  return bot.hasResponse ? signal(!!consent.statistics, !!consent.marketing) : signal();
}

/**
 * OneTrust: the active categories in `OnetrustActiveGroups` (",C0001,C0002,"): C0002 performance
 * (analytics), C0004 targeting (ads). One not active is a "no" once the visitor has closed the
 * banner (`OneTrust.IsAlertBoxClosed()`), and no answer yet before.
 */
export function oneTrust({ OnetrustActiveGroups: groups, OneTrust }: PageWindow): Signal | undefined {
  if (typeof groups !== 'string') return undefined;
  const answered = OneTrust?.IsAlertBoxClosed?.() !== false;
  const active = (group: string) => groups.split(',').includes(group) || (answered ? false : undefined);
  return signal(active('C0002'), active('C0004'));
}

/** The WordPress Consent API: `wp_has_consent('statistics')` and `wp_has_consent('marketing')`. */
export const wpConsentApi = ({ wp_has_consent: has }: PageWindow): Signal | undefined => (typeof has === 'function' ? signal(!!has('statistics'), !!has('marketing')) : undefined);

/**
 * Google Consent Mode: the consent commands in the page's `dataLayer` (`gtag('consent', 'default' |
 * 'update', {…})` pushes its arguments object there), in order: `analytics_storage` and `ad_storage`.
 * An update wins over any default; of the defaults a "denied" wins, because a default may name
 * regions (`region: ['PL']`) and the widget cannot tell where the visitor is.
 */
export function consentMode({ dataLayer }: PageWindow): Signal | undefined {
  if (!Array.isArray(dataLayer)) return undefined;
  let found: Signal | undefined;
  const updated: boolean[] = [];
  for (const entry of dataLayer) {
    const [name, command, values] = [entry?.[0], entry?.[1], entry?.[2]];
    if (name !== 'consent' || (command !== 'default' && command !== 'update') || typeof values !== 'object' || !values) continue;
    found ??= signal();
    ['analytics_storage', 'ad_storage'].forEach((key, i) => {
      const value = stateOf(values[key]);
      if (value === 'unknown' || (command === 'default' && (updated[i] || found![i] === 'denied'))) return;
      found![i] = value;
      updated[i] ||= command === 'update';
    });
  }
  return found;
}
