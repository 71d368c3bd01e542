// Shared state for several relays (REDIS_URL, REDIS_PREFIX, REDIS_TIMEOUT_MS); unset REDIS_URL: the
// embedded store. A REDIS_URL may carry a password, so its errors never echo the value.
import type { EnvReader } from './env.ts';

export interface RedisSettings {
  url: string;
  prefix: string;
  /** Deadline of one command (REDIS_TIMEOUT_MS). */
  commandTimeoutMs: number;
  /** Deadline of one connection attempt: the command deadline, at least 3 s (TLS handshakes). */
  connectTimeoutMs: number;
}

function isRedisUrl(value: string): boolean {
  const url = URL.parse(value);
  if (!url || (url.protocol !== 'redis:' && url.protocol !== 'rediss:') || !url.hostname) return false;
  // The path, if any, is the database number.
  return url.pathname === '' || url.pathname === '/' || /^\/\d{1,2}$/.test(url.pathname);
}

/** null: REDIS_URL is unset, the relay keeps its state in the embedded store. */
export function readRedis(env: EnvReader): RedisSettings | null {
  const url = env.text('REDIS_URL', { check: isRedisUrl, expected: 'redis://[user:password@]host[:port][/db] or rediss://… (TLS)', secret: true });
  const prefix =
    env.text('REDIS_PREFIX', { pattern: /^[A-Za-z0-9_.:-]{1,64}$/, expected: '1 to 64 letters, digits or _ . : - (no braces: the store adds its own hash tags)' }) ?? 'dialback:';
  // Longest wait for one Redis command before the request is answered 503; also bounds connecting.
  const commandTimeoutMs = env.duration('REDIS_TIMEOUT_MS', 50, 30_000) ?? 1000;
  if (url === undefined) return null;
  return { url, prefix, commandTimeoutMs, connectTimeoutMs: Math.max(3_000, commandTimeoutMs) };
}

/** The password in REDIS_URL, if any: for the logger's list of secrets to mask. */
export function redisSecrets(settings: RedisSettings | null): string[] {
  if (!settings) return [];
  const url = new URL(settings.url);
  return url.password ? [decodeURIComponent(url.password), url.password] : [];
}
