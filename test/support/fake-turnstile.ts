// Cloudflare Turnstile's browser API as far as the widget uses it, installed where the real script
// puts it (globalThis.turnstile), so the widget never loads a script in jsdom.
import { vi } from 'vitest';
import type { TurnstileApi } from '../../widget/src/ui/turnstile.ts';

/**
 * render() calls back at once with a fresh token (token-1, token-2, …: the relay accepts each token
 * once) and returns the widget's id (w1, w2, …). `rendered` holds the options of every render.
 */
export function fakeTurnstile() {
  const rendered: Array<Record<string, unknown>> = [];
  let issued = 0;
  const api = {
    render: vi.fn((_el: HTMLElement, options: Record<string, unknown>) => {
      rendered.push(options);
      (options.callback as (token: string) => void)(`token-${++issued}`);
      return `w${issued}`;
    }),
    reset: vi.fn(),
    remove: vi.fn(),
  } satisfies TurnstileApi;
  (globalThis as { turnstile?: TurnstileApi }).turnstile = api;
  return { api, rendered, issued: () => issued };
}

export function removeFakeTurnstile() {
  delete (globalThis as { turnstile?: unknown }).turnstile;
}
