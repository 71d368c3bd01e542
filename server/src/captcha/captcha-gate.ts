// When a callback needs the CAPTCHA, and what a failed one costs the client.
//   - Required for every callback with TURNSTILE_REQUIRED=always (the default), or only while the
//     site surges (limits/surge.ts) with TURNSTILE_REQUIRED=surge; outside a surge a token sent
//     anyway is not verified (it would cost a round trip to Cloudflare and decide nothing).
//   - Every try is a strike against the client and its networks (limits/strikes.ts), taken before
//     Cloudflare is asked and given back only when the token passes (or when Cloudflare could not
//     be asked, which is not the client's doing). So a missing, refused, replayed or foreign token
//     counts like any other refusal: after LIMIT_CLIENT_REFUSALS of them the client is refused
//     before its body is read, and however many arrive at once, at most that many reach Cloudflare.
import { RelayError } from '../errors.ts';
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
