// The request form: country, phone, consent (when configured), security check (when configured),
// a global error above the button for everything that is not about the visitor's input.
import { h } from 'preact';
import type { ComponentChildren } from 'preact';
import type { WidgetConfig } from '../config.ts';
import type { ConsentField } from './ConsentField.tsx';
import { CountrySelect } from './CountrySelect.tsx';
import { CallUsLink } from './CallUsLink.tsx';
import type { FlowError } from './fields.ts';
import { fill } from './i18n/format.ts';
import type { Messages } from './i18n/types.ts';
import { errorSentence } from './messages.ts';
import { exampleNumber } from './phone/parse.ts';
import { PhoneField } from './PhoneField.tsx';
import { LazyTurnstile } from './LazyTurnstile.tsx';
import type { FormValues } from './useCallbackFlow.ts';

export interface PhoneFormProps {
  config: WidgetConfig;
  messages: Messages;
  /** Present when the site asks for consent (loaded only then). */
  Consent: typeof ConsentField | null;
  values: FormValues;
  error: FlowError | null;
  onChange(values: Partial<FormValues>): void;
  onSubmit(): void;
  onFailure(error: unknown): void;
  /** "Call me later": the picker, or the button that fetches it. */
  children?: ComponentChildren;
}

export function PhoneForm({ config, messages: m, Consent, values, error, onChange, onSubmit, onFailure, children }: PhoneFormProps) {
  const lang = config.lang;
  // An error about a field this form does not show (the relay wants a security check the site has
  // not configured) goes above the button with the others.
  const field = error && ((error.field === 'consent' && !Consent) || (error.field === 'captcha' && !config.turnstileSiteKey)) ? null : error?.field;
  const at = (name: FlowError['field']) => (error && field === name ? errorSentence(lang, m, error) : null);
  const example = exampleNumber(values.country);
  const globalError = error && field === null ? error : null;
  return (
    <form
      class="form"
      noValidate
      onSubmit={(e) => {
        e.preventDefault();
        onSubmit();
      }}
    >
      <p class="intro">{m.intro}</p>
      <CountrySelect lang={lang} label={m.countryLabel} names={m.countryNames} value={values.country} onChange={(country) => onChange({ country })} />
      <PhoneField
        label={m.phoneLabel}
        hint={example ? fill(m.phoneHint, { example }) : null}
        value={values.phone}
        country={values.country}
        error={at('phone')}
        onChange={(phone) => onChange({ phone })}
      />
      {config.consentText && Consent && (
        <Consent
          text={config.consentText}
          privacyUrl={config.privacyUrl}
          privacyLabel={m.privacyLink}
          checked={values.consent}
          error={at('consent')}
          onChange={(consent) => onChange({ consent })}
        />
      )}
      {config.turnstileSiteKey && (
        <LazyTurnstile
          siteKey={config.turnstileSiteKey}
          lang={lang}
          label={m.captchaLabel}
          error={at('captcha')}
          onToken={(turnstileToken) => onChange({ turnstileToken })}
          onFailure={onFailure}
        />
      )}
      {children}
      {globalError && (
        <div class="notice alert" id="db-form-error" tabIndex={-1}>
          <p>{errorSentence(lang, m, globalError)}</p>
          {/* Not about the visitor's input: the office's own number is the honest next step. */}
          <CallUsLink config={config} template={m.callUs} />
        </div>
      )}
      <button type="submit" class="primary">
        {m.submit}
      </button>
    </form>
  );
}
