// Optional CAPTCHA: Cloudflare Turnstile, verified by the relay with the siteverify endpoint. With
// TURNSTILE_SECRET set, every callback needs a token; the relay fails closed, checks the hostname
// Cloudflare saw against the request's allowed Origin, and uses each token once. Nothing in the
// request can switch the check off. The rules: captcha/README.md.
import { createHash } from 'node:crypto';
import { request, type Dispatcher } from 'undici';
import { z } from 'zod';
import { RelayError } from '../contract/errors.ts';
import type { Logger } from '../log/index.ts';

/** Tokens live 300 s at Cloudflare; after that a replay fails there anyway. */
const TOKEN_LIFETIME_MS = 300_000;
const MAX_REMEMBERED_TOKENS = 100_000;

const SiteverifyAnswer = z.object({
  success: z.boolean(),
  hostname: z.string().optional(),
  'error-codes': z.array(z.string()).optional(),
});

export interface Captcha {
  /** Resolves when the token is valid for this request; throws captcha_required/captcha_failed/temporarily_unavailable. */
  verify(token: string | undefined, context: { clientIp: string; origin: string; log: Logger }): Promise<void>;
}

export interface TurnstileOptions {
  secret: string;
  verifyUrl: string;
  timeoutMs?: number;
  dispatcher?: Dispatcher;
  now?: () => number;
}

export function createTurnstile(options: TurnstileOptions): Captcha {
  const now = options.now ?? Date.now;
  const timeoutMs = options.timeoutMs ?? 5000;
  const used = new Map<string, number>();

  function remember(hash: string): boolean {
    const at = now();
    for (const [h, expires] of used) {
      if (expires > at && used.size < MAX_REMEMBERED_TOKENS) break;
      used.delete(h);
    }
    if (used.has(hash)) return false;
    used.set(hash, at + TOKEN_LIFETIME_MS);
    return true;
  }

  return {
    async verify(token, { clientIp, origin, log }) {
      if (!token) throw new RelayError('captcha_required', 'Please complete the verification before we place the call.', { field: 'turnstileToken' });
      const hash = createHash('sha256').update(token).digest('base64url');
      if (!remember(hash)) {
        throw new RelayError('captcha_failed', 'This verification was already used. Please complete it again.', { field: 'turnstileToken' });
      }

      let answer: z.infer<typeof SiteverifyAnswer>;
      try {
        const res = await request(options.verifyUrl, {
          method: 'POST',
          headers: { 'content-type': 'application/x-www-form-urlencoded' },
          body: new URLSearchParams({ secret: options.secret, response: token, remoteip: clientIp }).toString(),
          signal: AbortSignal.timeout(timeoutMs),
          ...(options.dispatcher && { dispatcher: options.dispatcher }),
        });
        const text = await res.body.text();
        if (res.statusCode !== 200) throw new Error(`siteverify answered HTTP ${res.statusCode}`);
        answer = SiteverifyAnswer.parse(JSON.parse(text));
      } catch (err) {
        // Fail closed: without a verdict there is no call. The token was never judged, so it is
        // not spent: the visitor's retry with it must not be taken for a replay (a failed check).
        used.delete(hash);
        log.error('CAPTCHA verification unavailable; refusing the callback', { err });
        throw new RelayError('temporarily_unavailable', 'We could not check the verification just now. Please try again in a minute.', { retryAfter: 30 });
      }

      if (!answer.success) {
        log.info('CAPTCHA refused', { errorCodes: answer['error-codes']?.slice(0, 5) });
        throw new RelayError('captcha_failed', 'The verification did not succeed. Please complete it again.', { field: 'turnstileToken' });
      }
      const expectedHost = new URL(origin).hostname;
      if (answer.hostname?.toLowerCase() !== expectedHost.toLowerCase()) {
        log.warn('CAPTCHA solved on another site', { hostname: answer.hostname?.slice(0, 100), expectedHost });
        throw new RelayError('captcha_failed', 'The verification was completed on another site. Please complete it again.', { field: 'turnstileToken' });
      }
    },
  };
}
