// The visitor's consent to analytics and ads as the widget knew it when it sent the request
// (contract/contract.ts TrackingConsent): kept with the job, told to the owner view and the lead webhook, so
// a marketer sees why a lead has no client id (the widget read no tracking cookie). The lead report
// keeps its mark with each lead and counts the leads asked without analytics consent (noConsent).
import { TrackingConsent } from '../contract/contract.ts';

/** A stored snapshot as the schema allows it; null for none (a widget or relay from before it) or anything else a store holds. */
export function storedConsent(value: unknown): TrackingConsent | null {
  const parsed = TrackingConsent.safeParse(value);
  return parsed.success ? parsed.data : null;
}

/**
 * Whether the widget read the tracking cookies and, if not, why:
 *   granted  analytics consent given: read
 *   none     no consent signal on the page (or data-consent="off"): read as without consent handling
 *   denied   analytics consent declined: nothing read
 *   unknown  no answer yet (or data-consent="required" without one): nothing read
 *   ''       not told (a widget from before it)
 */
export type ConsentMark = '' | 'granted' | 'none' | 'denied' | 'unknown';

export const CONSENT_MARKS = ['', 'granted', 'none', 'denied', 'unknown'] as const satisfies readonly ConsentMark[];

/** A stored mark as one of the marks ('' for anything else a store holds). */
export const markOf = (value: unknown): ConsentMark => ((CONSENT_MARKS as readonly unknown[]).includes(value) ? (value as ConsentMark) : '');

/** The marks of leads whose tracking cookies the widget did not read, for want of analytics consent. */
export const WITHOUT_CONSENT = ['denied', 'unknown'] as const satisfies readonly ConsentMark[];

export function consentMark(consent: TrackingConsent | null | undefined): ConsentMark {
  if (!consent) return '';
  if (consent.cookiesRead) return consent.analytics === 'granted' ? 'granted' : 'none';
  return consent.analytics === 'denied' ? 'denied' : 'unknown';
}
