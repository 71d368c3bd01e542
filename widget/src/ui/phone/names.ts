// A country the phone table does not know (only a site's data-country can be: a typed or pasted
// number picks a country of the table, phone/parse.ts) is offered while it is the value, named in
// the visitor's language, in its sorted place. Only such a country needs Intl.DisplayNames, whose first use in a page is one long task
// (70–120 ms at 4× CPU), so this is a chunk of its own: the table's countries are named by the
// language catalog (i18n/types.ts).

export interface Option {
  iso: string;
  label: string;
}

/** `known` (sorted by label) with `iso` added in its place, named, or by its code where Intl cannot name it. */
export function withCountry(lang: string, known: readonly Option[], iso: string): Option[] {
  let label = iso;
  try {
    label = new Intl.DisplayNames([lang], { type: 'region' }).of(iso) ?? iso;
  } catch {
    // No Intl.DisplayNames, or a code it rejects: the code it is.
  }
  const at = known.findIndex((o) => o.label.localeCompare(label, lang) > 0);
  return at < 0 ? [...known, { iso, label }] : [...known.slice(0, at), { iso, label }, ...known.slice(at)];
}
