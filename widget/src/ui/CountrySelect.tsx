// The country for national numbers, named in the visitor's language with its calling code. The
// names and the sorted list come a moment after the dialog shows (see phone/names.ts): building
// them at once was most of the long task when the dialog first opened.
import { useEffect, useState } from 'preact/hooks';
import { countries } from './phone/countries.ts';
import type { OptionsFor } from './phone/names.ts';

export interface CountrySelectProps {
  lang: string;
  label: string;
  value: string;
  onChange(country: string): void;
}

export function CountrySelect({ lang, label, value, onChange }: CountrySelectProps) {
  // Until the names arrive: the chosen country by its code.
  const [optionsFor, setOptionsFor] = useState<OptionsFor>(() => (iso: string) => [{ iso, label: iso }]);
  useEffect(() => {
    let stop: (() => void) | undefined;
    let live = true;
    import('./phone/names.ts').then(
      (module) => live && (stop = module.loadOptions(lang, countries, (options) => setOptionsFor(() => options))),
      () => {},
    );
    return () => {
      live = false;
      stop?.();
    };
  }, [lang]);

  return (
    <div class="field country">
      <label for="db-country">{label}</label>
      <select id="db-country" autocomplete="country" value={value} onChange={(e) => onChange(e.currentTarget.value)}>
        {optionsFor(value).map((o) => (
          <option key={o.iso} value={o.iso}>
            {o.label}
          </option>
        ))}
      </select>
    </div>
  );
}
