// The country for national numbers, named in the visitor's language (Intl.DisplayNames, no data in
// the bundle) with its calling code.
import { useMemo } from 'preact/hooks';
import { countries } from './phone/countries';

export interface CountrySelectProps {
  lang: string;
  label: string;
  value: string;
  disabled?: boolean;
  onChange(country: string): void;
}

function regionName(lang: string, iso: string): string {
  try {
    return new Intl.DisplayNames([lang], { type: 'region' }).of(iso) ?? iso;
  } catch {
    return iso;
  }
}

export function CountrySelect({ lang, label, value, disabled, onChange }: CountrySelectProps) {
  const options = useMemo(() => {
    const codes = Object.keys(countries);
    if (value && !codes.includes(value)) codes.push(value);
    return codes
      .map((iso) => {
        const code = countries[iso]?.code;
        return { iso, label: `${regionName(lang, iso)}${code ? ` (+${code})` : ''}` };
      })
      .sort((a, b) => a.label.localeCompare(b.label, lang));
  }, [lang, value]);

  return (
    <div class="field country">
      <label for="db-country">{label}</label>
      <select id="db-country" autocomplete="country" value={value} disabled={disabled} onChange={(e) => onChange(e.currentTarget.value)}>
        {options.map((o) => (
          <option key={o.iso} value={o.iso}>
            {o.label}
          </option>
        ))}
      </select>
    </div>
  );
}
