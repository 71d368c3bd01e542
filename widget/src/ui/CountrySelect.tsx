// The country for national numbers, named in the visitor's language (Intl.DisplayNames, no data in
// the bundle) with its calling code.
import { countries } from './phone/countries';

export interface CountrySelectProps {
  lang: string;
  label: string;
  value: string;
  onChange(country: string): void;
}

function regionName(lang: string, iso: string): string {
  try {
    return new Intl.DisplayNames([lang], { type: 'region' }).of(iso) ?? iso;
  } catch {
    return iso;
  }
}

export function CountrySelect({ lang, label, value, onChange }: CountrySelectProps) {
  // A country the table does not know (data-country="IS") is still offered, without its code.
  const codes = Object.keys(countries);
  if (!codes.includes(value)) codes.push(value);
  const options = codes
    .map((iso) => {
      const code = countries[iso]?.code;
      return { iso, label: `${regionName(lang, iso)}${code ? ` (+${code})` : ''}` };
    })
    .sort((a, b) => a.label.localeCompare(b.label, lang));

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
