// Every configured value that must never be printed: the logger replaces each with `[secret]`.
import type { Config } from './index.ts';
import { notifySecrets } from './notify.ts';
import { redisSecrets } from './redis.ts';

export function secretsOf(config: Config): string[] {
  return [
    config.service.authKey,
    config.hash.secret,
    config.route.token,
    config.owner.token,
    config.protect.metricsToken,
    config.protect.turnstile?.secret,
    config.leadWebhook?.secret,
    ...redisSecrets(config.redis),
    ...notifySecrets(config.notify),
  ].filter((s): s is string => !!s);
}
