// A refusal by a limit as the visitor meets it: which public error (429 for what the client or its
// network did, 503 for what the whole site meets) and one sentence per reason.
import { RelayError } from '../contract/errors.ts';
import type { LimitReason, Refusal } from './limit-store.ts';

/** The site-wide caps: the breaker's windows. */
export const siteReasons: Partial<Record<LimitReason, 'hourly' | 'daily'>> = { site_hourly_cap: 'hourly', site_daily_cap: 'daily' };

/** Refusals nobody in particular caused (a site cap, a full store): no strike against the client. */
export const notTheClients = (reason: LimitReason): boolean => reason in siteReasons || reason === 'limiter_full';

const messages: Record<LimitReason, string> = {
  number_cooldown: 'A call to this number was requested moments ago. Please wait a little before asking again.',
  number_daily: 'This number has had as many callback requests as we allow in a day. Please try again tomorrow.',
  number_in_flight: 'A call to this number is being placed right now. Please wait for it.',
  client_rate: 'Too many callback requests from your connection. Please wait a few minutes.',
  client_daily: 'Too many callback requests from your connection today. Please try again tomorrow.',
  client_numbers: 'Callbacks to more numbers were requested from your connection than we allow in a day.',
  client_refusals: 'Too many refused callback requests from your connection. Please wait a few minutes.',
  prefix_rate: 'Too many callback requests to similar numbers. Please wait a few minutes.',
  network_rate: 'Too many callback requests from your network this hour. Please try again later.',
  network_daily: 'Too many callback requests from your network today. Please try again tomorrow.',
  network_refusals: 'Too many refused callback requests from your network. Please wait a few minutes.',
  // Never sent: the surge table only tells whether a site surges (surge.ts).
  site_surge: 'The callback service is very busy right now. Please try again in a few minutes.',
  surge_network: 'Unusually many callback requests are coming from your network right now. Please try again in a few minutes.',
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

/** The visitor can only succeed once every limit has room: the longest wait of several. */
export const worstOf = (refusals: readonly Refusal[]): Refusal => refusals.reduce((a, b) => (b.retryAfter > a.retryAfter ? b : a));
