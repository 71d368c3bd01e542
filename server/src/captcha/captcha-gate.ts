// When a callback needs the CAPTCHA (always, or only while the site surges) and what a failed try
// costs: every try is a strike against the client and its networks, taken before Cloudflare is asked
// and given back only when the token passes, so a bad token counts like any refusal and at most
// LIMIT_CLIENT_REFUSALS reach Cloudflare. The rules: captcha/README.md.
import { RelayError } from '../contract/errors.ts';
import type { Limiter } from '../limits/limiter.ts';
import type { Captcha } from './turnstile.ts';

export interface CaptchaGateDeps {
  check: Captcha;
  required: 'always' | 'surge';
  limiter: Pick<Limiter, 'surging' | 'chargeStrike'>;
}

export function createCaptchaGate(deps: CaptchaGateDeps): Captcha {
  return {
    async verify(token, context) {
      if (deps.required === 'surge' && !(await deps.limiter.surging(context.origin))) return;
      // Throws rate_limited when the client or its network is already at its strike limit.
      const strike = await deps.limiter.chargeStrike(context.clientIp);
      try {
        await deps.check.verify(token, context);
      } catch (err) {
        if (err instanceof RelayError && err.code === 'temporarily_unavailable') await strike.refund();
        throw err;
      }
      await strike.refund();
    },
  };
}
