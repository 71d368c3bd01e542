// The security check area. Hands its token up. The relay accepts each token once: every request
// that is sent unmounts the form ("sending…"), so the next attempt draws a fresh check, and a new
// check first drops any token of the old one. A refusal in the browser (consent unticked) keeps the
// form, and with it the unspent token.
import { h } from 'preact';
import { useEffect, useRef } from 'preact/hooks';
import { loadTurnstile, type TurnstileApi } from './turnstile.ts';

export interface TurnstileProps {
  siteKey: string;
  lang: string;
  label: string;
  error: string | null;
  onToken(token: string | null): void;
  onFailure(error: unknown): void;
}

export function Turnstile({ siteKey, lang, label, error, onToken, onFailure }: TurnstileProps) {
  const box = useRef<HTMLDivElement>(null);

  useEffect(() => {
    const el = box.current;
    if (!el) return;
    let live = true;
    let rendered: { api: TurnstileApi; id: string | undefined } | undefined;
    onToken(null); // a token of an earlier check may already be spent
    loadTurnstile(el.getRootNode()).then((api) => {
      if (!live) return;
      const id = api.render(el, {
        sitekey: siteKey,
        language: lang,
        callback: (token: string) => onToken(token),
        'expired-callback': () => onToken(null),
        'error-callback': () => onToken(null),
      });
      rendered = { api, id };
    }, onFailure);
    return () => {
      live = false;
      // The form unmounts while a request is sent and renders a new check after it: remove this one,
      // or Turnstile keeps every old widget (and keeps refreshing its token).
      try {
        rendered?.api.remove(rendered.id);
      } catch (error) {
        onFailure(error);
      }
    };
  }, [siteKey]);

  return (
    // biome-ignore lint/a11y/useSemanticElements: a fieldset would bring its own border, padding and min-width into a dialog laid out with divs, and there is no legend to give; aria-label names the group
    <div class={`field captcha${error ? ' invalid' : ''}`} role="group" aria-label={label} aria-describedby={error ? 'db-captcha-error' : undefined}>
      <div ref={box} class="turnstile" />
      {error && (
        <p id="db-captcha-error" class="error">
          {error}
        </p>
      )}
    </div>
  );
}
