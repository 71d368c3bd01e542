// The security check area. Hands its token up; a new token is needed for each attempt (the relay
// accepts each one once), so the parent bumps `generation` after every submit.
import { useEffect, useRef } from 'preact/hooks';
import { loadTurnstile } from './turnstile';

export interface TurnstileProps {
  siteKey: string;
  lang: string;
  label: string;
  generation: number;
  error: string | null;
  onToken(token: string | null): void;
  onFailure(error: unknown): void;
}

export function Turnstile({ siteKey, lang, label, generation, error, onToken, onFailure }: TurnstileProps) {
  const box = useRef<HTMLDivElement>(null);
  const widget = useRef<{ id: string | undefined; reset(id?: string): void } | null>(null);

  useEffect(() => {
    const el = box.current;
    if (!el) return;
    let live = true;
    loadTurnstile(el.getRootNode()).then((api) => {
      if (!live) return;
      const id = api.render(el, {
        sitekey: siteKey,
        language: lang,
        callback: (token: string) => onToken(token),
        'expired-callback': () => onToken(null),
        'error-callback': () => onToken(null),
      });
      widget.current = { id, reset: (x) => api.reset(x) };
    }, onFailure);
    return () => {
      live = false;
    };
  }, [siteKey]);

  useEffect(() => {
    if (generation > 0 && widget.current) {
      onToken(null);
      widget.current.reset(widget.current.id);
    }
  }, [generation]);

  return (
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
