// The country for national numbers, named in the visitor's language with its calling code, in the
// language's alphabetical order: both come with the language catalog (i18n/types.ts), so nothing
// is worked out while the dialog opens. The dialog's first frame holds the chosen country alone:
// the other options were half the elements of the dialog's first render (and each has a style of
// its own), the largest part of the opening. They follow a task after that frame (an effect runs
// after the paint), long before a visitor can open the list; focus starts on the phone input.
import { h } from 'preact';
import { useEffect, useState } from 'preact/hooks';
import { countries } from './phone/countries.ts';
import type { Option } from './phone/names.ts';

export interface CountrySelectProps {
  lang: string;
  label: string;
  /** The catalog's names of the table's countries, in the language's order. */
  names: Readonly<Record<string, string>>;
  value: string;
  onChange(country: string): void;
}

export function CountrySelect({ lang, label, names, value, onChange }: CountrySelectProps) {
  // The whole list is made only when it is drawn (not for the first frame, which shows one).
  const option = (iso: string): Option => ({ iso, label: `${names[iso]} (+${countries[iso]!.code})` });
  const known = () => Object.keys(names).map(option);
  // A country the table does not know (only the site's own, data-country, can be: a number picks
  // a country of the table): by its code until phone/names.ts (a chunk) has named it and
  // placed it among the others.
  const unknown = !countries[value];
  const [named, setNamed] = useState<Option[]>();
  const [painted, setPainted] = useState(false);
  useEffect(() => {
    setPainted(true);
    if (unknown)
      import('./phone/names.ts').then(
        (module) => setNamed(module.withCountry(lang, known(), value)),
        () => {},
      );
  }, [unknown]);
  const options = unknown ? (named ?? [{ iso: value, label: value }]) : painted ? known() : [option(value)];

  return (
    <div class="field country">
      <label for="db-country">{label}</label>
      <select id="db-country" autocomplete="country" value={value} onChange={(e) => onChange(e.currentTarget.value)}>
        {options.map((o) => (
          <option key={o.iso} value={o.iso}>
            {o.label}
          </option>
        ))}
      </select>
    </div>
  );
}
