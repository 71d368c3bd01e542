// Cloudflare Turnstile, loaded only when the site sets data-turnstile-sitekey. The script goes into
// our own shadow root (not the host's <head>); under a strict CSP the site must allow its origin.
const turnstileScript = 'https://challenges.cloudflare.com/turnstile/v0/api.js?render=explicit';

export interface TurnstileApi {
  render(container: HTMLElement, options: Record<string, unknown>): string | undefined;
  reset(widgetId?: string): void;
  remove(widgetId?: string): void;
}

let loading: Promise<TurnstileApi> | null = null;

export function loadTurnstile(into: Node): Promise<TurnstileApi> {
  const existing = (globalThis as { turnstile?: TurnstileApi }).turnstile;
  if (existing) return Promise.resolve(existing);
  loading ??= new Promise<TurnstileApi>((resolve, reject) => {
    const doc = (into.ownerDocument ?? document) as Document;
    const script = doc.createElement('script');
    script.src = turnstileScript;
    script.async = true;
    script.addEventListener('load', () => {
      const api = (globalThis as { turnstile?: TurnstileApi }).turnstile;
      if (api) resolve(api);
      else reject(new Error('Turnstile loaded without its API'));
    });
    script.addEventListener('error', () => reject(new Error('Turnstile could not be loaded')));
    into.appendChild(script);
  });
  loading.catch(() => (loading = null));
  return loading;
}
