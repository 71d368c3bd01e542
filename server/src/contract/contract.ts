// The widget ↔ relay contract. The relay validates with these schemas; the widget imports
// *types only* (`import type`), so zod never reaches the browser bundle.
import { z } from 'zod';
import { oneLineEach } from '../visitor-text/one-line.ts';
import { httpUrl } from '../visitor-text/page-url.ts';
import { optionalVisitorText } from '../visitor-text/schema.ts';

/**
 * Attribution captured in the visitor's browser from the tracking cookies (rngst2, rngst, _ga). Each
 * value is kept as one clean line (visitor-text/one-line.ts); one with nothing visible left is left
 * out, as the widget leaves out a blank one.
 */
const attributionValue = z.string().max(200);
export const Attribution = z
  .object({
    utmSource: attributionValue,
    utmMedium: attributionValue,
    utmCampaign: attributionValue,
    utmTerm: attributionValue,
    utmContent: attributionValue,
    clientId: attributionValue,
  })
  .partial()
  .strict()
  .transform((values) => oneLineEach(values, 200));
export type Attribution = z.infer<typeof Attribution>;

/**
 * The visitor's consent to analytics and to ads as the widget knew it when it sent the request: the
 * page's consent platform (`source`) or `dialback('consent', …)`, and whether the widget read the
 * tracking cookies (rngst2, rngst, _ga) for it. Without analytics consent it reads none, so a lead
 * without a client id says why. Fixed words only: nothing a visitor can write.
 */
export const consentStates = ['granted', 'denied', 'unknown'] as const;
export const consentSources = ['tcf', 'consent-mode', 'cookiebot', 'onetrust', 'command', 'none'] as const;
export const TrackingConsent = z
  .object({
    analytics: z.enum(consentStates),
    ads: z.enum(consentStates),
    source: z.enum(consentSources),
    cookiesRead: z.boolean(),
  })
  .strict();
export type TrackingConsent = z.infer<typeof TrackingConsent>;
export type ConsentState = TrackingConsent['analytics'];
export type ConsentSource = TrackingConsent['source'];

/**
 * An absolute http(s) URL with a host, nothing else: the consent record must name a page a person
 * can open, not a relative path, a `javascript:` or `data:` URL.
 */
function isHttpUrl(value: string): boolean {
  return /^https?:\/\/[^\s/?#@]\S*$/i.test(value) && URL.canParse(value);
}

/** A BCP 47 language tag as the widget's `data-lang` gives it (`uk`, `en-GB`); anything else is dropped. */
const LANGUAGE_TAG = /^[A-Za-z]{2,8}(?:-[A-Za-z0-9]{1,8})*$/;

/** Body of `POST /api/callback`. */
export const CallbackRequest = z
  .object({
    /** What the visitor typed; the relay parses it (national forms use `country`, then DEFAULT_COUNTRY). */
    phone: z.string().min(1).max(40),
    /** ISO 3166-1 alpha-2 country the visitor picked for national numbers. */
    country: z
      .string()
      .regex(/^[A-Za-z]{2}$/)
      .optional(),
    /** True when the visitor ticked the consent box (required when the relay has REQUIRE_CONSENT). */
    consent: z.boolean().optional(),
    /**
     * The consent sentence the visitor saw; the relay stores only its hash in the consent record. Not
     * cleaned like the other text: the hash must be of the very sentence shown (one in Arabic or
     * Hebrew holds bidi marks of its own), and the sentence itself is never stored or shown.
     */
    consentText: z.string().max(2000).optional(),
    /** The privacy notice linked beside the consent sentence (the widget resolves it to an absolute http(s) URL); the consent record keeps it as the URL parser writes it. */
    privacyUrl: z
      .string()
      .max(2000)
      .refine(isHttpUrl, 'expected an absolute http(s) URL')
      .transform((value) => httpUrl(value) ?? value)
      .optional(),
    attribution: Attribution.optional(),
    /** The visitor's consent to analytics and ads (above); a widget from before it sends none. */
    trackingConsent: TrackingConsent.optional(),
    /**
     * The page the widget is on (location.href). The route keeps it only as an http(s) page of the
     * request's Origin and drops any other (visitor-text/page-url.ts): never a reason to refuse a call.
     */
    pageUrl: z.string().max(2048).optional(),
    /** The widget's language; not a language tag (after the visitor-text rule): dropped. */
    locale: optionalVisitorText(35)
      .transform((tag) => (tag !== undefined && LANGUAGE_TAG.test(tag) ? tag : undefined))
      .optional(),
    /** Cloudflare Turnstile token, when the site enables it. */
    turnstileToken: z.string().max(4096).optional(),
    /** "Call me later": an ISO 8601 instant with its offset, inside office hours, at most SCHEDULE_MAX_DAYS ahead. */
    scheduledFor: z.string().max(40).optional(),
    /** The department to call from (an id of `StatusResponse.departments`); none: the first. An unknown one is 400 invalid_request, field `department`. */
    department: z.string().min(1).pipe(optionalVisitorText(40)).optional(),
  })
  .strict();
export type CallbackRequest = z.infer<typeof CallbackRequest>;

/** `202` answer of `POST /api/callback`. Never carries the full number back. */
export interface CallbackAccepted {
  status: 'accepted';
  requestId: string;
  /** The number with its middle digits hidden, e.g. `+380 50 *** ** 67`. */
  phoneMasked: string;
  /** Honest estimate of when the visitor's phone rings, in seconds from now. */
  estimateSeconds: number;
}

/**
 * `202` answer of `POST /api/callback` with `scheduledFor`: the relay keeps the request and places
 * the call at that time. `cancelToken` lets the visitor cancel it (DELETE /api/callback/<requestId>).
 */
export interface CallbackScheduled {
  status: 'scheduled';
  requestId: string;
  /** The instant the call will be placed, ISO 8601 (UTC). */
  scheduledFor: string;
  cancelToken: string;
  phoneMasked: string;
}

/**
 * `202` answer of `POST /api/callback` when the service provably never got the request (it was
 * unreachable): the relay holds the request and places it as soon as the service answers again,
 * for at most QUEUE_MAX_WAIT_SECONDS. It can be cancelled like a scheduled one.
 */
export interface CallbackQueued {
  status: 'queued';
  requestId: string;
  cancelToken: string;
  phoneMasked: string;
}

/** Any `202` answer of `POST /api/callback`. */
export type CallbackAnswer = CallbackAccepted | CallbackScheduled | CallbackQueued;

/**
 * What the relay knows about a callback (`GET /api/callback/<requestId>`), in the order a call
 * lives it: held for later (scheduled, queued), placed (accepted, agent_ringing, ringing_you,
 * connected), and final (completed, missed, failed, cancelled, unknown). `redial`: nobody answered,
 * and the relay will call again at `scheduledFor`.
 */
export const callOutcomes = [
  'scheduled',
  'queued',
  'accepted',
  'agent_ringing',
  'ringing_you',
  'connected',
  'completed',
  'missed',
  'redial',
  'failed',
  'cancelled',
  'unknown',
] as const;
export type CallOutcome = (typeof callOutcomes)[number];
export interface CallbackProgress {
  requestId: string;
  outcome: CallOutcome;
  /** For scheduled and redial: when the relay will place the call, ISO 8601. */
  scheduledFor?: string;
  /** Suggested wait before asking again, in milliseconds; absent once the outcome is final. */
  pollAfterMs?: number;
  /** The department the call is from; only when the relay has DEPARTMENTS_FILE. */
  department?: string;
}

/**
 * `DELETE /api/callback/<requestId>` with the header `Cancel-Token: <cancelToken>` cancels a
 * scheduled or queued call (or a pending re-dial); it answers `200` with the progress, outcome
 * `cancelled`. A call being placed right now cannot be cancelled (409 not_cancellable).
 */
export const CANCEL_TOKEN_HEADER = 'cancel-token';

/** `GET /api/status`. */
export interface StatusResponse {
  available: boolean;
  agentsOnline: number;
  agentsFree: number;
  openNow: boolean;
  /** ISO 8601 instant of the next opening when closed now; null when always open or open now. */
  nextOpenAt: string | null;
  /** Where the status came from: fresh service answer, a cached one, or unknown (service unreachable). */
  source: 'live' | 'cached' | 'unknown';
  /** The office's open windows from now to SCHEDULE_MAX_DAYS ahead (ISO 8601 instants), for the time picker. */
  windows: Array<{ opensAt: string; closesAt: string }>;
  /** Each department (DEPARTMENTS_FILE, in the file's order); absent without the file. */
  departments?: DepartmentStatus[];
}

/** One department in `GET /api/status`: the top-level fields, for its own agents and hours. */
export interface DepartmentStatus {
  id: string;
  /** Its name per language (`en`, `uk`, …). */
  name: Record<string, string>;
  available: boolean;
  openNow: boolean;
  nextOpenAt: string | null;
  windows: Array<{ opensAt: string; closesAt: string }>;
}

/**
 * Every error code the relay can answer, with its HTTP status. The widget keeps a sentence for each
 * one (its catalogs are typed `Record<ErrorCode, string>`, so a new code cannot go untranslated).
 */
export const errorStatus = {
  invalid_request: 400,
  invalid_phone: 400,
  country_not_allowed: 400,
  premium_number_not_allowed: 400,
  shared_cost_number_not_allowed: 400,
  uan_number_not_allowed: 400,
  voip_number_not_allowed: 400,
  pager_number_not_allowed: 400,
  personal_number_not_allowed: 400,
  toll_free_number_not_allowed: 400,
  voicemail_number_not_allowed: 400,
  office_number_not_allowed: 400,
  fallback_number_not_allowed: 400,
  /** The owner put this number on the never-call list. */
  number_not_allowed: 400,
  consent_required: 400,
  captcha_required: 400,
  captcha_failed: 403,
  origin_not_allowed: 403,
  not_found: 404,
  method_not_allowed: 405,
  request_timeout: 408,
  closed: 409,
  scheduled_in_past: 400,
  scheduled_too_far: 400,
  scheduled_outside_hours: 400,
  already_scheduled: 409,
  not_cancellable: 409,
  cancel_not_allowed: 403,
  idempotency_in_progress: 409,
  idempotency_key_reused: 422,
  payload_too_large: 413,
  unsupported_media_type: 415,
  headers_too_large: 431,
  rate_limited: 429,
  internal_error: 500,
  upstream_rejected: 502,
  upstream_unknown: 502,
  upstream_unavailable: 503,
  temporarily_unavailable: 503,
  upstream_timeout: 504,
} as const satisfies Record<string, number>;
export type ErrorCode = keyof typeof errorStatus;

/** Codes only the owner view's API answers: no visitor meets them, so the widget has no sentence for them. */
export const serverOnlyErrorStatus = {
  not_callable: 409,
} as const satisfies Record<string, number>;
/** Every code the relay can answer. */
export type RelayErrorCode = ErrorCode | keyof typeof serverOnlyErrorStatus;

export interface ErrorBody {
  error: {
    code: ErrorCode;
    message: string;
    field?: string;
    /** Seconds until a retry may succeed (also sent as `Retry-After`). */
    retryAfter?: number;
    /** For `closed`: ISO 8601 instant of the next opening. */
    nextOpenAt?: string;
  };
}
