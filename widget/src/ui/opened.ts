// The open beacon: when the dialog first opens in a page view, the relay counts one open for the lead
// report's funnel (POST /api/opened), grouped by the campaign the visitor came from, the page's path
// and the department shown. Counts only: no number, no cookie of ours, no address is sent or kept.
// A chunk of its own with the attribution reader, fetched after that first open (never at page load);
// the request (send.ts) takes the attribution from here, with the visitor's consent that allowed it.
import type { Attribution, StatusResponse, TrackingConsent } from '../../../server/src/contract/contract.ts';
import type { ApiResult } from '../api.ts';
import { readAttribution } from '../attribution.ts';
import { consentNow } from '../consent/consent.ts';
import type { UiContext } from './ui-context.ts';

/** The attribution as the visitor's consent allows it now, and that consent. */
export function attributionNow(ctx: UiContext): [Attribution, TrackingConsent] {
  const consent = consentNow(ctx);
  return [readAttribution(consent.cookiesRead, location.href, ctx.pageAtLoad), consent];
}

/** What the beacon says: the campaign's three utm values, the page's path and the department shown (unknown ones left out by JSON). */
export function openBeacon(ctx: UiContext, path: string): Record<string, string | undefined> {
  const [{ utmSource, utmMedium, utmCampaign }] = attributionNow(ctx);
  // The relay keeps 200 characters of each (the path without its query, which can carry anything).
  return { utmSource, utmMedium, utmCampaign, page: path.slice(0, 200), department: ctx.pick?.first };
}

/**
 * Sends the beacon once the status is known (the department shown depends on it), answered or not.
 * `sendBeacon` posts text/plain, which needs no CORS preflight, and outlives the page if the visitor
 * leaves at once; its answer is never read.
 */
export function countOpen(ctx: UiContext, status: Promise<ApiResult<StatusResponse>> | null): void {
  const send = () => navigator.sendBeacon?.(ctx.config.relay + '/api/opened', JSON.stringify(openBeacon(ctx, location.pathname)));
  Promise.resolve(status).then(send, send);
}
