// The shape of a language catalog. Typed records make a missing sentence a compile error: every
// error code of the relay (ErrorCode) and every call outcome has a text in every language.
import type { CallOutcome, ErrorCode } from '../../../../server/src/contract.ts';
import type { CountryCode } from '../phone/countries.ts';

/** Plural forms as Intl.PluralRules names them; `{n}` is replaced by the formatted number. */
export type Plural = Partial<Record<Intl.LDMLPluralRule, string>> & { other: string };

/** Errors the widget finds itself, before or instead of an answer from the relay. */
export type ClientErrorCode = 'network_error' | 'bad_response' | 'phone_too_short' | 'phone_too_long';

export interface Messages {
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
  busy: string;
  /** `{when}`: a localized day and time in the visitor's time zone. */
  closedUntil: string;
  closedNow: string;
  /** `{n}` seconds / minutes until a retry may succeed. */
  retryInSeconds: Plural;
  retryInMinutes: Plural;
  captchaLabel: string;
  errors: Record<ErrorCode | ClientErrorCode, string>;
}
