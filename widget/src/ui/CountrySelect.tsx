// The country for national numbers, named in the visitor's language with its calling code, in the
// language's alphabetical order: both come with the language catalog (i18n/types.ts), so the
// first render has the whole list and nothing is worked out while the dialog opens.
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
  const known = Object.entries(names).map(([iso, name]): Option => ({ iso, label: `${name} (+${countries[iso]!.code})` }));
  // A country the table does not know (only the site's own, data-country, can be: a number picks
  // a country of the table): by its code until phone/names.ts (a chunk) has named it and
  // placed it among the others.
  const unknown = !countries[value];
  const [named, setNamed] = useState<Option[]>();
  useEffect(() => {
    if (unknown)
      import('./phone/names.ts').then(
        (module) => setNamed(module.withCountry(lang, known, value)),
        () => {},
      );
  }, [unknown]);
  const options = unknown ? (named ?? [{ iso: value, label: value }]) : known;

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
