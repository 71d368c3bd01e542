// Whether the widget may read the tracking cookies (rngst2, rngst, _ga) and use the site's storage
// now, and what it tells the relay of the visitor's consent to analytics and ads, as `data-consent`
// decides (auto, required, off: docs/embedding.md, "Consent"). Asked each time it matters, from the
// platforms' globals as they are then, so consent given later counts from then on and withdrawn
// stops it. Lazily loaded; none of the platforms is ours: a missing member is no answer.
import type { ConsentSource, ConsentState, TrackingConsent } from '../../../server/src/contract/contract.ts';
import type { WidgetContext } from '../context.ts';

/** [analytics, ads]. */
type Signal = [analytics: ConsentState, ads: ConsentState];
// The platforms' globals: anything or nothing.
// biome-ignore lint/suspicious/noExplicitAny: a page's globals have no type
type Page = Record<string, any>;

/** true or 'granted' → granted; false or 'denied' → denied; anything else → unknown. */
const stateOf = (value: unknown): ConsentState => (value === true || value === 'granted' ? 'granted' : value === false || value === 'denied' ? 'denied' : 'unknown');
const signal = (analytics?: unknown, ads?: unknown): Signal => [stateOf(analytics), stateOf(ads)];

/** The CMP whose listener is added (once per page), and its last answer. */
let cmp: unknown;
let tcfAnswer: Signal;

/**
 * IAB TCF v2.2: the CMP answers `__tcfapi('addEventListener', 2, callback)` with its TC data, at once
 * when it has it and again each time the visitor decides; its last answer stands (none while the
 * banner waits). Analytics: Purpose 1 (store or access information on a device: reading a cookie is
 * that) and Purpose 8 (measure content performance); ads: Purposes 1 and 7 (measure advertising
 * performance). Where the GDPR does not apply (`gdprApplies: false`) both are granted.
 */
function tcf({ __tcfapi: api }: Page): Signal | undefined {
  if (typeof api !== 'function') return undefined;
  if (api !== cmp) {
    cmp = api;
    tcfAnswer = signal();
    api('addEventListener', 2, (data: Page | null, success: boolean) => {
      const purposes = Object(data?.purpose?.consents);
      const yes = (purpose: number) => data!.gdprApplies === false || !!(purposes[1] && purposes[purpose]);
      if (success && /^(tcloaded|useractioncomplete)$/.test(data?.eventStatus)) tcfAnswer = signal(yes(8), yes(7));
    });
  }
  return tcfAnswer;
}

/**
 * Google Consent Mode: the consent commands in the page's `dataLayer` (`gtag('consent', 'default' |
 * 'update', {…})` pushes its arguments there), in order: `analytics_storage` and `ad_storage`. An
 * update wins over any default; of the defaults a "denied" wins, because a default may name regions
 * (`region: ['PL']`) and the widget cannot tell where the visitor is.
 */
function consentMode({ dataLayer }: Page): Signal | undefined {
  let found: Signal | undefined;
  const updated: boolean[] = [];
  for (const entry of Array.isArray(dataLayer) ? dataLayer : []) {
    const { 0: name, 1: command, 2: values } = Object(entry);
    if (name !== 'consent' || !/^(default|update)$/.test(command) || Object(values) !== values) continue;
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

/** The platforms in the order they are asked: the first with an answer decides. */
const platforms: Array<[ConsentSource, (win: Page, told: unknown[]) => Signal | undefined]> = [
  // dialback('consent', { analytics, ads }): the last one, each true or 'granted', false or 'denied'.
  ['command', (_, told, last = told.at(-1) as Page) => (Object(last) === last ? signal(last.analytics, last.ads) : undefined)],
  ['tcf', tcf],
  // Cookiebot: `consent.statistics` and `.marketing` (both false until the visitor answers).
  ['cookiebot', ({ Cookiebot: bot }) => bot && signal(!!bot.consent?.statistics, !!bot.consent?.marketing)],
  // OneTrust: the active categories (",C0001,C0002,"): C0002 performance (analytics), C0004 targeting
  // (ads); one not active is a "no" (before the visitor answers, only the site's defaults are).
  ['onetrust', ({ OnetrustActiveGroups: groups }) => (typeof groups === 'string' ? signal(groups.includes(',C0002,'), groups.includes(',C0004,')) : undefined)],
  ['consent-mode', consentMode],
];

/** The visitor's consent as the page tells it now; `cookiesRead`: the widget may read the tracking cookies and use the site's storage. */
export function consentNow({ script, told, report }: Pick<WidgetContext, 'script' | 'told' | 'report'>): TrackingConsent {
  const mode = script?.getAttribute('data-consent')?.trim().toLowerCase() || 'auto';
  /** The first platform present that has not answered yet: nothing is read while it waits. */
  let waiting: TrackingConsent | undefined;
  if (mode !== 'off')
    for (const [source, read] of platforms) {
      let found: Signal | undefined;
      try {
        found = read(window, told);
      } catch (error) {
        report(error); // a broken platform is no answer
      }
      if (found) {
        const consent = { analytics: found[0], ads: found[1], source, cookiesRead: found[0] === 'granted' };
        if (found[0] !== 'unknown') return consent;
        waiting ??= consent;
      }
    }
  return waiting ?? { analytics: 'unknown', ads: 'unknown', source: 'none', cookiesRead: /^(auto|off)$/.test(mode) };
}
