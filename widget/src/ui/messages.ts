// Sentences composed from catalog entries: an error with its retry time or opening time.
import type { Messages } from './i18n/types.ts';
import { fill, plural } from './i18n/format.ts';
import type { formatOpening } from './i18n/opening.ts';

/** Set once ./i18n/opening has loaded (with the picker, ./schedule.tsx); until then a closed office is "closed now", without the time. */
let openingFormatter: typeof formatOpening | null = null;
export function setOpeningFormatter(format: typeof formatOpening): void {
  openingFormatter = format;
}
import type { FlowError } from './fields.ts';

export function retrySentence(lang: string, m: Messages, seconds: number): string {
  return seconds >= 90 ? plural(lang, m.retryInMinutes, Math.ceil(seconds / 60)) : plural(lang, m.retryInSeconds, Math.max(1, Math.ceil(seconds)));
}

export function closedSentence(lang: string, m: Messages, nextOpenAt: string | null | undefined, otherwise = m.closedNow): string {
  const when = nextOpenAt && openingFormatter ? openingFormatter(lang, nextOpenAt) : null;
  return when ? fill(m.closedUntil, { when }) : otherwise;
}

export function errorSentence(lang: string, m: Messages, error: FlowError): string {
  const base = m.errors[error.code] ?? m.errors.internal_error;
  if (error.code === 'rate_limited' && error.retryAfter) return `${base} ${retrySentence(lang, m, error.retryAfter)}`;
  if (error.code === 'closed') return closedSentence(lang, m, error.nextOpenAt, base);
  return base;
}
