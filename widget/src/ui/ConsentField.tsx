// The consent checkbox, shown only when the site sets data-consent-text; its error sits beside it.
// Its styles come with it (mount.tsx adopts them): sites without consent never load them.
import { h } from 'preact';
export { default as css } from './consent.css?inline';

export interface ConsentFieldProps {
  text: string;
  privacyUrl: string | null;
  privacyLabel: string;
  checked: boolean;
  error: string | null;
  onChange(checked: boolean): void;
}

export function ConsentField({ text, privacyUrl, privacyLabel, checked, error, onChange }: ConsentFieldProps) {
  return (
    <div class={`field consent${error ? ' invalid' : ''}`}>
      <div class="check">
        <input
          id="db-consent"
          type="checkbox"
          checked={checked}
          required
          aria-invalid={error ? 'true' : 'false'}
          aria-describedby={error ? 'db-consent-error' : undefined}
          onChange={(e) => onChange(e.currentTarget.checked)}
        />
        <label for="db-consent">{text}</label>
      </div>
      {privacyUrl && (
        <a class="privacy" href={privacyUrl} target="_blank" rel="noopener noreferrer">
          {privacyLabel}
        </a>
      )}
      {error && (
        <p id="db-consent-error" class="error">
          {error}
        </p>
      )}
    </div>
  );
}
