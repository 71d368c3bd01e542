// The Redis settings (design.md §5: REDIS_URL, REDIS_PREFIX), in the style of protect/settings.ts:
// config.ts can spread `redisEnv` into its schema table and call `redisSettings`, or a caller can
// use `readRedisSettings(process.env)` on its own. Every message starts with "expected" so the
// config reader never echoes the value: a REDIS_URL may carry a password.
import { z } from 'zod';
import { wholeNumber } from './env-number.ts';

const URL_EXPECTED = 'expected redis://[user:password@]host[:port][/db] or rediss://… (TLS)';
const PREFIX_EXPECTED = 'expected 1 to 64 letters, digits or _ . : - (no braces: the store adds its own hash tags)';

function isRedisUrl(value: string): boolean {
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    return false;
  }
  if (url.protocol !== 'redis:' && url.protocol !== 'rediss:') return false;
  if (!url.hostname) return false;
  // The path, if any, is the database number.
  return url.pathname === '' || url.pathname === '/' || /^\/\d{1,2}$/.test(url.pathname);
}

export const redisEnv = {
  REDIS_URL: z.string().refine(isRedisUrl, URL_EXPECTED).optional(),
  REDIS_PREFIX: z
    .string()
    .regex(/^[A-Za-z0-9_.:-]{1,64}$/, PREFIX_EXPECTED)
    .default('dialback:'),
  /** Longest wait for one Redis command before the request is answered 503; also bounds connecting. */
  REDIS_TIMEOUT_MS: wholeNumber(50, 30_000).default(1000),
} satisfies Record<string, z.ZodType>;

type RedisEnv = { [K in keyof typeof redisEnv]: z.output<(typeof redisEnv)[K]> };

export interface RedisSettings {
  url: string;
  prefix: string;
  /** Deadline of one command (REDIS_TIMEOUT_MS). */
  commandTimeoutMs: number;
  /** Deadline of one connection attempt: the command deadline, at least 3 s (TLS handshakes). */
  connectTimeoutMs: number;
}

/** null: REDIS_URL is unset, the relay keeps its state in the embedded store. */
export function redisSettings(e: RedisEnv): RedisSettings | null {
  if (!e.REDIS_URL) return null;
  return { url: e.REDIS_URL, prefix: e.REDIS_PREFIX, commandTimeoutMs: e.REDIS_TIMEOUT_MS, connectTimeoutMs: Math.max(3_000, e.REDIS_TIMEOUT_MS) };
}

/** Reads the three variables from `raw`; throws an Error whose message is one line naming the variable. */
export function readRedisSettings(raw: Record<string, string | undefined>): RedisSettings | null {
  const out: Record<string, unknown> = {};
  for (const [name, schema] of Object.entries(redisEnv)) {
    const value = raw[name] === '' ? undefined : raw[name];
    const parsed = (schema as z.ZodType).safeParse(value);
    if (!parsed.success) throw new Error(`${name}: ${parsed.error.issues[0]?.message ?? 'invalid'}`);
    out[name] = parsed.data;
  }
  return redisSettings(out as RedisEnv);
}

/** The password in REDIS_URL, if any: for the logger's list of secrets to mask. */
export function redisSecrets(settings: RedisSettings | null): string[] {
  if (!settings) return [];
  const url = new URL(settings.url);
  return url.password ? [decodeURIComponent(url.password), url.password] : [];
}
