// Filling templates, choosing plural forms (Intl.PluralRules, so uk/ru/pl get one/few/many right)
// and saying "when we open" in the visitor's own time zone.
import type { Plural } from './types';

export function fill(template: string, values: Record<string, string | number>): string {
  return template.replace(/\{(\w+)\}/g, (whole, key: string) => (key in values ? String(values[key]) : whole));
}

export function plural(lang: string, forms: Plural, n: number): string {
  const form = forms[new Intl.PluralRules(lang).select(n)] ?? forms.other;
  return fill(form, { n: new Intl.NumberFormat(lang).format(n) });
}

const dayMs = 86_400_000;

/**
 * A localized "today, 09:00" / "tomorrow, 09:00" / "Monday, 09:00" / "12 May, 09:00" for an ISO
 * instant, in the browser's time zone (the visitor's, not the office's).
 */
export function formatOpening(lang: string, iso: string, now: Date = new Date(), timeZone?: string): string | null {
  const at = new Date(iso);
  if (Number.isNaN(at.getTime())) return null;
  const time = new Intl.DateTimeFormat(lang, { hour: '2-digit', minute: '2-digit', timeZone }).format(at);
  // Day difference in the target zone: compare calendar dates rendered there.
  const dayNumber = (d: Date) => {
    const parts = new Intl.DateTimeFormat('en-US', { year: 'numeric', month: 'numeric', day: 'numeric', timeZone }).formatToParts(d);
    const part = (type: string) => Number(parts.find((p) => p.type === type)?.value);
    return Date.UTC(part('year'), part('month') - 1, part('day')) / dayMs;
  };
  const days = dayNumber(at) - dayNumber(now);
  let day: string;
  if (days === 0 || days === 1) day = new Intl.RelativeTimeFormat(lang, { numeric: 'auto' }).format(days, 'day');
  else if (days > 1 && days < 7) day = new Intl.DateTimeFormat(lang, { weekday: 'long', timeZone }).format(at);
  else day = new Intl.DateTimeFormat(lang, { day: 'numeric', month: 'long', timeZone }).format(at);
  return `${day}, ${time}`;
}
