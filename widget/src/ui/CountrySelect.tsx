// The country for national numbers, named in the visitor's language (Intl.DisplayNames, no data in
// the bundle) with its calling code.
import { useMemo } from 'preact/hooks';
import { countries } from './phone/countries.ts';

export interface CountrySelectProps {
  lang: string;
  label: string;
  value: string;
  onChange(country: string): void;
}

interface Option {
  iso: string;
  label: string;
}

export function CountrySelect({ lang, label, value, onChange }: CountrySelectProps) {
  // The sorted list is built once per language, not on every keystroke in the phone field (the form
  // re-renders on each one) nor on every change of country.
  const optionsWith = useMemo(() => {
    // Country names in the visitor's language; one formatter for the whole list (they are costly to make).
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
    const sort = (options: Option[]) => options.sort((a, b) => a.label.localeCompare(b.label, lang));
    const known = sort(Object.keys(countries).map(option));
    // A country the table does not know (data-country="IS") is still offered, without its code.
    return (chosen: string) => (countries[chosen] ? known : sort([...known, option(chosen)]));
  }, [lang]);
  const options = optionsWith(value);

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

