// The country for national numbers, named in the visitor's language (Intl.DisplayNames, no data in
// the bundle) with its calling code.
import { countries } from './phone/countries';

export interface CountrySelectProps {
  lang: string;
  label: string;
  value: string;
  onChange(country: string): void;
}

/** Country names in the visitor's language; one formatter for the whole list (they are costly to make). */
function regionNames(lang: string): (iso: string) => string {
  try {
    const names = new Intl.DisplayNames([lang], { type: 'region' });
    return (iso) => names.of(iso) ?? iso;
  } catch {
    return (iso) => iso; // no Intl.DisplayNames: the codes still work
  }
}

export function CountrySelect({ lang, label, value, onChange }: CountrySelectProps) {
  // A country the table does not know (data-country="IS") is still offered, without its code.
  const name = regionNames(lang);
  const codes = Object.keys(countries);
  if (!codes.includes(value)) codes.push(value);
  const options = codes
    .map((iso) => {
      const code = countries[iso]?.code;
      return { iso, label: `${name(iso)}${code ? ` (+${code})` : ''}` };
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
