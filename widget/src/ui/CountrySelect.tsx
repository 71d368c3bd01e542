// The country for national numbers, named in the visitor's language (Intl.DisplayNames, no data in
// the bundle) with its calling code.
import { useMemo } from 'preact/hooks';
import { countries } from './phone/countries';

export interface CountrySelectProps {
  lang: string;
  label: string;
  value: string;
  onChange(country: string): void;
}

export function CountrySelect({ lang, label, value, onChange }: CountrySelectProps) {
  // Built once per language and chosen country, not on every keystroke in the phone field (the form
  // re-renders on each one). A country the table does not know (data-country="IS") is still offered,
  // without its code.
  const options = useMemo(() => {
    // Country names in the visitor's language; one formatter for the whole list (they are costly to make).
    let names: Intl.DisplayNames | undefined;
    try {
      names = new Intl.DisplayNames([lang], { type: 'region' });
    } catch {
      // No Intl.DisplayNames: the codes still work.
    }
    const codes = Object.keys(countries);
    if (!codes.includes(value)) codes.push(value);
    return codes
      .map((iso) => {
        const code = countries[iso]?.code;
        return { iso, label: `${names?.of(iso) ?? iso}${code ? ` (+${code})` : ''}` };
      })
      .sort((a, b) => a.label.localeCompare(b.label, lang));
  }, [lang, value]);

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
