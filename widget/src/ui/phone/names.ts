// The country list in the visitor's language (Intl.DisplayNames, no data in the bundle), sorted by
// name. A chunk of its own, and in two steps, each a task of its own: Intl's first use in a page
// loads its data, tens of milliseconds at 4× CPU for the names and as many for the collator, which
// made this list most of the long task when the dialog first opened. The dialog shows first, with
// the chosen country by its code; then its name; then the whole sorted list.
import type { CountryPhone } from './countries.ts';

export interface Option {
  iso: string;
  label: string;
}
/** The options to render while `chosen` is the value (a country the table does not know is added). */
export type OptionsFor = (chosen: string) => Option[];

/** Calls `show` with the named option at once, then with the sorted list a task later. Returns the function that stops. */
export function loadOptions(lang: string, countries: Readonly<Record<string, CountryPhone>>, show: (options: OptionsFor) => void): () => void {
  let names: Intl.DisplayNames | undefined;
  try {
    names = new Intl.DisplayNames([lang], { type: 'region' });
  } catch {
    // No Intl.DisplayNames: the codes still work.
  }
  const option = (iso: string): Option => {
    const code = countries[iso]?.code;
    return { iso, label: `${names?.of(iso) ?? iso}${code ? ` (+${code})` : ''}` };
  };
  show((chosen) => [option(chosen)]);
  const timer = setTimeout(() => {
    // One collator for the whole sort (localeCompare with a language builds one per comparison).
    const { compare } = new Intl.Collator(lang);
    const sort = (options: Option[]) => options.sort((a, b) => compare(a.label, b.label));
    const known = sort(Object.keys(countries).map(option));
    show((chosen) => (countries[chosen] ? known : sort([...known, option(chosen)])));
  });
  return () => clearTimeout(timer);
}
