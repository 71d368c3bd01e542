// Where an error belongs: at the phone field, at the consent box, at the security check, or above
// the submit button for everything that is not the visitor's input.
import type { FailureCode } from '../api.ts';
import type { ClientErrorCode } from './i18n/types.ts';

export type ErrorCodeAny = FailureCode | ClientErrorCode;
export type FieldName = 'phone' | 'consent' | 'captcha';

export interface FlowError {
  code: ErrorCodeAny;
  field: FieldName | null;
  retryAfter?: number | undefined;
  nextOpenAt?: string | undefined;
}

/**
 * The relay names the field of validation errors (`phone`, `country`, `consent`, `turnstileToken`);
 * the destination-policy codes (invalid_phone, country_not_allowed, premium_number_not_allowed, …,
 * number_not_allowed for a number on the owner's never-call list)
 * and our own phone checks belong at the phone field too.
 */
export function fieldOf(code: ErrorCodeAny, relayField?: string): FieldName | null {
  const key = `${relayField ?? ''} ${code}`;
  if (/phone|country/.test(key) || /number_not_allowed$/.test(code)) return 'phone';
  if (/consent/.test(key)) return 'consent';
  if (/captcha|turnstile/i.test(key)) return 'captcha';
  return null;
}

/** The outcome of the attempt is unknown: re-sending must reuse its Idempotency-Key. */
export function outcomeUnknown(code: ErrorCodeAny): boolean {
  return /^(network_error|upstream_timeout|upstream_unknown|idempotency_in_progress|request_timeout)$/.test(code);
}
