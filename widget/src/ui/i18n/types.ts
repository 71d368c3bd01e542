// The shape of a language catalog. Typed records make a missing sentence a compile error: every
// error code a visitor can meet (FailureCode) and every call outcome has a text in every language.
import type { CallOutcome } from '../../../../server/src/contract/contract.ts';
import type { FailureCode } from '../../api.ts';
import type { CountryCode } from '../phone/countries.ts';

/**
 * Plural forms as Intl.PluralRules names them; `{n}` is replaced by the formatted number. A form
 * left out falls back to `other`. Every count is whole (seconds and minutes, rounded), so in uk, ru
 * and pl, whose `other` serves only fractions, `other` holds the `many` form ("5 секунд") and `many`
 * is left out: the same words, one sentence less for every visitor to download.
 */
export type Plural = Partial<Record<Intl.LDMLPluralRule, string>> & { other: string };

/** Errors the widget finds itself, before or instead of an answer from the relay. */
export type ClientErrorCode = 'network_error' | 'bad_response' | 'phone_too_short' | 'phone_too_long';

export interface Messages {
  /**
   * Where most people who write this language call from: the country of national numbers when
   * neither `data-country` nor the language tag's region names one (en → US, uk → UA, cs → CZ).
   * Here rather than in the 3 KB entry: only the dialog needs it.
   */
  country: CountryCode;
  /**
   * The invitation (data-invite): the sentence when someone can answer now, and the sentence when
   * nobody can but a call can be booked for later (its close button is named by `close`). In the
   * catalog the invitation fetches when it shows: the dialog it opens then finds it already there.
   */
  invite: readonly [now: string, later: string];
  launcher: string;
  title: string;
  intro: string;
  close: string;
  /**
   * The name of every country of the phone table, written in this language's alphabetical order
   * (the select lists them in this order; a test checks it). In the catalog rather than asked of
   * Intl.DisplayNames: its first use in a page costs 70–120 ms at 4× CPU, one long task.
   */
  countryNames: Readonly<Record<CountryCode, string>>;
  countryLabel: string;
  phoneLabel: string;
  /** Shown under the field: an example in the chosen country's format, `{example}`. */
  phoneHint: string;
  privacyLink: string;
  submit: string;
  sending: string;
  /** `{phone}`: the number as the widget will read it back. */
  willCall: string;
  /** A call booked for later: `{phone}`, `{when}` a localized day and time in the visitor's time zone. */
  willCallAt: string;
  /** Under a queued call: the service is unreachable, the relay keeps the request. */
  queuedNote: string;
  cancelCall: string;
  /** "Call me later": the button that offers a day and time while the office is open. */
  later: string;
  whenLabel: string;
  /** `{when}`: the next opening, a localized day and time. */
  asap: string;
  rightAway: string;
  atTime: string;
  dayLabel: string;
  timeLabel: string;
  /** `{zone}`: the visitor's IANA time zone, e.g. Europe/Warsaw. */
  zoneHint: string;
  /** `{n}` seconds. */
  estimate: Plural;
  outcomeTitle: string;
  outcomes: Record<CallOutcome, string>;
  /** Shown when the estimate has passed and the call has not reached the visitor. */
  slow: string;
  tryAgain: string;
  callUs: string;
  /** Above the site's messenger links (Telegram, WhatsApp, Viber). */
  writeToUs: string;
  /**
   * The choice of department (several on the relay): the field's label, and what follows a
   * department's name while it can answer now or is closed. Here rather than in the departments
   * chunk: a table of every language there sent each visitor eleven they never read (~430 B).
   */
  department: readonly [label: string, open: string, closed: string];
  busy: string;
  /** `{when}`: a localized day and time in the visitor's time zone. */
  closedUntil: string;
  closedNow: string;
  /** `{n}` seconds / minutes until a retry may succeed. */
  retryInSeconds: Plural;
  retryInMinutes: Plural;
  captchaLabel: string;
  /**
   * One sentence per error code, but not one per code: every byte here is paid by every visitor
   * (only the largest catalog counts against the budget, and the keys alone cost ~10 B each), so
   * codes that ask the same of the visitor share a sentence, written once as a constant at the top
   * of each catalog:
   * - the eight number kinds we refuse (premium, shared-cost, UAN, VoIP, pager, personal,
   *   toll-free, voicemail): "we only call mobile and landline numbers", as the visitor's way out
   *   is the same whichever kind it was;
   * - our own office and fallback numbers: "this is one of our own numbers";
   * - upstream_unknown and upstream_timeout: "we may still call you, wait a minute";
   * - upstream_unavailable and temporarily_unavailable: "briefly unavailable, try in a few minutes";
   * - the three refusals of a booked time: "that time is not available, pick another";
   * - closed: the same words as closedNow (errorSentence adds the opening time when it knows it);
   * - not_found (a request the relay forgot): invalid_request's "reload the page and try again";
   *   bad_response (a proxy's error page) and origin_not_allowed (a site the relay does not
   *   serve: the page's error event and the relay's answer name it for the site's developer):
   *   internal_error's "something went wrong on our side".
   * Those keep their keys: the API knows a code by its key here (track.ts waits on not_found), and
   * the page's error event reports the code as the relay sent it. Only the codes our own requests
   * can never earn (bugOnlyCodes in api.ts) have no key: they arrive as invalid_request.
   * FailureCode leaves just those out, so a code a visitor can meet without a sentence in every
   * language is a compile error; the i18n test checks every language shares where English does.
   * Each catalog lists the shared codes itself, though the grouping is the same in all five: one
   * table of them in the UI chunk (then the Preact chunk), spread into each catalog, was measured (2026-11-26) at
   * +89 B gzip for every visitor against 25–36 B less per catalog (the keys compress well in each).
   */
  errors: Record<FailureCode | ClientErrorCode, string>;
}
