// Filling templates, choosing plural forms (Intl.PluralRules, so uk/ru/pl get one/few/many right)
// and saying "when we open" in the visitor's own time zone.
import type { Plural } from './types.ts';

export function fill(template: string, values: Record<string, string | number>): string {
  return template.replace(/\{(\w+)\}/g, (whole, key: string) => (key in values ? String(values[key]) : whole));
}

export function plural(lang: string, forms: Plural, n: number): string {
  const form = forms[new Intl.PluralRules(lang).select(n)] ?? forms.other;
  return fill(form, { n: new Intl.NumberFormat(lang).format(n) });
}
