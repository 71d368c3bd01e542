// Where an error belongs: at the phone field, at the consent box, at the security check, or above
// the submit button for everything that is not the visitor's input.
import type { FailureCode } from '../api';
import type { ClientErrorCode } from './i18n/types';

export type ErrorCodeAny = FailureCode | ClientErrorCode;
export type FieldName = 'phone' | 'consent' | 'captcha';

export interface FlowError {
  code: ErrorCodeAny;
  field: FieldName | null;
  retryAfter?: number;
  nextOpenAt?: string;
}

const phoneCodes: ReadonlySet<string> = new Set([
  'invalid_phone',
  'country_not_allowed',
  'premium_number_not_allowed',
  'shared_cost_number_not_allowed',
  'uan_number_not_allowed',
  'voip_number_not_allowed',
  'pager_number_not_allowed',
  'personal_number_not_allowed',
  'phone_too_short',
  'phone_too_long',
]);

/** The relay names the field for validation errors (`phone`, `country`, `consent`, `turnstileToken`). */
export function fieldOf(code: ErrorCodeAny, relayField?: string): FieldName | null {
  if (relayField === 'phone' || relayField === 'country' || phoneCodes.has(code)) return 'phone';
  if (relayField === 'consent' || code === 'consent_required') return 'consent';
  if (relayField === 'turnstileToken' || code === 'captcha_required' || code === 'captcha_failed') return 'captcha';
  return null;
}

/** Failures after which the office's own number is the honest next step. */
export function offersCall(code: ErrorCodeAny): boolean {
  return /^(upstream_|temporarily_|internal_error|network_error|bad_response|origin_not_allowed|rate_limited|request_timeout)/.test(code);
}

/** The outcome of the attempt is unknown: re-sending must reuse its Idempotency-Key. */
export function outcomeUnknown(code: ErrorCodeAny): boolean {
  return code === 'network_error' || code === 'upstream_timeout' || code === 'upstream_unknown' || code === 'idempotency_in_progress' || code === 'request_timeout';
}
