// Environment → typed configuration, parsed once at startup. A missing or malformed setting stops
// startup with one line that names it and says what is expected (ConfigError.message).
// main.ts is the only caller with the real process.env; tests pass plain objects.
import { randomBytes } from 'node:crypto';
import { z } from 'zod';
import type { LogLevel } from '../log/index.ts';
import { parseWorkingHours, type WeeklySchedule } from '../schedule/working-hours.ts';
import { parseCidrList, type CidrList } from '../lib/cidr.ts';
import { protectEnv, protectSettings, type ProtectSettings } from './limits.ts';
import { storeEnv, storeSettings, type StoreSettings } from './store.ts';
import { redisEnv, redisSecrets, redisSettings, type RedisSettings } from './redis.ts';
import { webhookEnv, webhookSettings, type WebhookSettings } from './webhooks.ts';
import { wholeNumber as integer } from './env-number.ts';
import { DEFAULT_PROJECT_TIME_ZONE } from './service.ts';

export class ConfigError extends Error {
  override readonly name = 'ConfigError';
}

/** Values the embedded simulator supplies when CALLTRACKING_BASE_URL is unset (demo mode). */
export interface SimulatorDefaults {
  baseUrl: string;
  authKey: string;
  projectId: string;
  caller: string;
  /** The simulator's project time zone (default Europe/Kyiv). */
  timeZone?: string;
}

/**
 * What CALLTRACKING_PROJECT_ID and CALLBACK_CALLER default to against an external service (the
 * design gives them the simulator's values, so the standalone simulator works with a base URL and a
 * key alone). Against the real service the defaults are wrong, so using one is a startup warning.
 */
export interface ServiceFallbacks {
  projectId: string;
  caller: string;
}

export interface Config {
  /** Settings that fell back to a default an operator should replace; main.ts logs each. */
  warnings: string[];
  port: number;
  host: string;
  publicUrl: string;
  /** Demo mode: the embedded simulator is the service; `/` and `/owner` are served. */
  demo: boolean;
  /** `timeZone`: the project's zone in the service (calls/list `from`/`to` and dates are in it). */
  calltracking: { baseUrl: string; authKey: string; projectId: string; timeZone: string };
  /** The routing webhook `/hooks/route/<token>`; token null: the route does not exist. */
  route: { token: string | null; fallback: string | null; destinationField: string; reply: 'json' | 'text'; statusWaitMs: number };
  /** Token for `/owner` outside demo mode (and required in demo mode when set). */
  ownerToken: string | null;
  /** Call outcomes: one shared call-log poll per `pollMs`; `ringSeconds` the service rings a party. */
  outcome: { pollMs: number; ringSeconds: number };
  callback: { caller: string; callerType: 'default' | 'scheme'; direction: 'in' | 'out'; managerDst: 0 | 1 };
  allowedOrigins: readonly string[];
  defaultCountry: string;
  allowedCountries: readonly string[];
  trustedProxies: CidrList;
  upstreamTimeoutMs: number;
  statusCacheMs: number;
  logLevel: LogLevel;
  /** Window in which repeats of a cheap answer share one summary line (0: a line per request). */
  logRepeatWindowMs: number;
  schedule: WeeklySchedule | null;
  timezone: string;
  /** How far ahead a visitor may book a call (SCHEDULE_MAX_DAYS). */
  scheduleMaxDays: number;
  requireConsent: boolean;
  consentLogPath: string | null;
  /** Key for hashing phone numbers (limiter keys, consent records). */
  hashSecret: string;
  /** True when HASH_SECRET was unset and a per-process secret was generated (main.ts warns). */
  hashSecretGenerated: boolean;
  widgetDir: string;
  demoDir: string;
  /** Limits, idempotency, CAPTCHA, HTTP timeouts, readiness and metrics (protect/settings.ts). */
  protect: ProtectSettings;
  /** The embedded store (DATA_DIR), used when `redis` is null. */
  store: StoreSettings;
  /** Shared state for several relays (REDIS_URL); null: the embedded store. */
  redis: RedisSettings | null;
  /** The owner's lead webhook (LEAD_WEBHOOK_URL, LEAD_WEBHOOK_SECRET); null: none. */
  leadWebhook: WebhookSettings | null;
  /** Calls held for later: QUEUE_MAX_WAIT_SECONDS, REDIAL_ATTEMPTS, REDIAL_DELAY_SECONDS. */
  held: { queueMaxWaitSec: number; redialAttempts: number; redialDelaySec: number };
}

const bool = z.enum(['true', 'false', '1', '0', 'yes', 'no']).transform((v) => ['true', '1', 'yes'].includes(v));
const country = z
  .string()
  .regex(/^[A-Za-z]{2}$/, 'expected an ISO 3166-1 alpha-2 country code such as UA')
  .transform((c) => c.toUpperCase());
const origin = z.string().transform((value, ctx) => {
  try {
    const url = new URL(value);
    if ((url.protocol === 'http:' || url.protocol === 'https:') && url.origin === value.replace(/\/$/, '')) return url.origin;
  } catch {
    /* reported below */
  }
  ctx.addIssue({ code: 'custom', message: `expected an origin such as https://shop.example.com, got "${value}"` });
  return z.NEVER;
});
const commaList = (s: string) =>
  s
    .split(',')
    .map((x) => x.trim())
    .filter(Boolean);
const httpUrl = z
  .string()
  .url('expected an http(s) URL')
  .refine((u) => /^https?:/.test(u), 'expected an http(s) URL');

/** Secrets that travel in URLs: long enough not to guess, and URL-safe so nothing mangles them. */
const secretToken = z
  .string()
  .regex(/^[A-Za-z0-9._~-]{16,256}$/, 'expected a random URL-safe token of at least 16 characters (letters, digits, . _ ~ -), e.g. from `openssl rand -hex 24`');

// One schema per variable, so the error names exactly the variable that is wrong.
const env = {
  PORT: integer(0, 65535).default(8080),
  HOST: z.string().min(1).default('127.0.0.1'),
  PUBLIC_URL: origin.optional(),
  CALLTRACKING_BASE_URL: httpUrl.optional(),
  CALLTRACKING_AUTH_KEY: z.string().min(8, 'expected the project Auth-key (at least 8 characters)').optional(),
  CALLTRACKING_PROJECT_ID: z.string().regex(/^\S+$/, 'expected the project id').optional(),
  CALLBACK_CALLER: z
    .string()
    .regex(/^\S{2,64}$/, 'expected a number, SIP login or scheme id')
    .optional(),
  CALLBACK_CALLER_TYPE: z.enum(['default', 'scheme']).default('default'),
  CALLBACK_DIRECTION: z.enum(['in', 'out']).default('out'),
  CALLBACK_MANAGER_DST: z.enum(['0', '1']).default('1').transform(Number) as z.ZodType<0 | 1>,
  ALLOWED_ORIGINS: z.string().transform(commaList).pipe(z.array(origin).min(1, 'expected at least one origin')).optional(),
  DEFAULT_COUNTRY: country.default('UA'),
  ALLOWED_COUNTRIES: z.string().transform(commaList).pipe(z.array(country).min(1)).optional(),
  TRUSTED_PROXIES: z.string().default(''),
  UPSTREAM_TIMEOUT_MS: integer(100, 120_000).default(8000),
  STATUS_CACHE_MS: integer(0, 600_000).default(5000),
  LOG_LEVEL: z.enum(['debug', 'info', 'warn', 'error', 'silent']).default('info'),
  LOG_REPEAT_WINDOW_MS: integer(0, 60_000).default(1000),
  WORKING_HOURS: z.string().optional(),
  TIMEZONE: z.string().default('UTC'),
  SCHEDULE_MAX_DAYS: integer(1, 60).default(7),
  REQUIRE_CONSENT: bool.default(false),
  CONSENT_LOG_PATH: z.string().min(1).optional(),
  HASH_SECRET: z.string().min(16, 'expected a random secret of at least 16 characters').optional(),
  DEMO: bool.optional(),
  WIDGET_DIR: z.string().default('dist/widget'),
  DEMO_DIR: z.string().default('demo'),
  CALLTRACKING_TIMEZONE: z.string().optional(),
  ROUTE_WEBHOOK_TOKEN: secretToken.optional(),
  ROUTE_FALLBACK: z
    .string()
    .regex(/^[^\s/]{2,64}$/, 'expected a phone number in international format or a SIP login')
    .optional(),
  ROUTE_DESTINATION_FIELD: z
    .string()
    .regex(/^[\w.-]{1,64}$/, 'expected the member name entered as "Name in response for destination" (letters, digits, _ . -)')
    .default('destination'),
  ROUTE_REPLY: z.enum(['json', 'text']).default('json'),
  ROUTE_STATUS_WAIT_MS: integer(50, 2500).default(1000),
  OWNER_TOKEN: secretToken.optional(),
  OUTCOME_POLL_MS: integer(250, 60_000).default(4000),
  CALL_RING_SECONDS: integer(1, 300).default(30),
  QUEUE_MAX_WAIT_SECONDS: integer(0, 86_400).default(600),
  REDIAL_ATTEMPTS: integer(0, 5).default(1),
  REDIAL_DELAY_SECONDS: integer(0, 86_400).default(300),
  ...protectEnv,
  ...storeEnv,
  ...redisEnv,
  ...webhookEnv,
} satisfies Record<string, z.ZodType>;

type Env = { [K in keyof typeof env]: z.output<(typeof env)[K]> };

function readEnv(raw: Record<string, string | undefined>): Env {
  const out: Record<string, unknown> = {};
  for (const [name, schema] of Object.entries(env)) {
    const value = raw[name] === '' ? undefined : raw[name];
    const parsed = (schema as z.ZodType).safeParse(value);
    if (!parsed.success) {
      const issue = parsed.error.issues[0];
      const shown = value === undefined ? 'it is missing' : `got "${value.length > 80 ? value.slice(0, 80) + '…' : value}"`;
      const why = issue?.message?.startsWith('expected') ? issue.message : `${issue?.message ?? 'invalid'} (${shown})`;
      throw new ConfigError(`${name}: ${why}`);
    }
    out[name] = parsed.data;
  }
  return out as Env;
}

function isTimeZone(tz: string): boolean {
  try {
    new Intl.DateTimeFormat('en-US', { timeZone: tz });
    return true;
  } catch {
    return false;
  }
}

/**
 * Builds the configuration. `simulator` supplies the service settings when CALLTRACKING_BASE_URL is
 * unset (main.ts starts the embedded simulator first); without either, startup stops.
 */
export function loadConfig(raw: Record<string, string | undefined>, simulator?: SimulatorDefaults, fallbacks?: ServiceFallbacks): Config {
  const e = readEnv(raw);
  const external = e.CALLTRACKING_BASE_URL !== undefined;
  if (external && !e.CALLTRACKING_AUTH_KEY)
    throw new ConfigError("CALLTRACKING_AUTH_KEY: required when CALLTRACKING_BASE_URL is set (the project Auth-key from the service's integration section)");
  const warnings: string[] = [];
  const projectId = e.CALLTRACKING_PROJECT_ID ?? (external ? fallbacks?.projectId : simulator?.projectId);
  const caller = e.CALLBACK_CALLER ?? (external ? fallbacks?.caller : simulator?.caller);
  if (external && !projectId) throw new ConfigError('CALLTRACKING_PROJECT_ID: required when CALLTRACKING_BASE_URL is set (the projectId of the extended callback)');
  if (external && !caller) throw new ConfigError('CALLBACK_CALLER: required when CALLTRACKING_BASE_URL is set (the number, SIP login or scheme that is called first)');
  if (external && !e.CALLTRACKING_PROJECT_ID)
    warnings.push(`CALLTRACKING_PROJECT_ID is not set: using the simulator's "${projectId}"; the real service refuses callbacks until it is set`);
  if (external && !e.CALLBACK_CALLER) warnings.push(`CALLBACK_CALLER is not set: using the simulator's office line "${caller}"; set the number, SIP login or scheme to call first`);
  if (!external && !simulator) throw new ConfigError('CALLTRACKING_BASE_URL: not set, and no simulator was started to stand in for the service');

  const demo = e.DEMO ?? !external;
  // Demo mode opens the owner view without a token: with a real service behind it, that would show
  // the business's real calls to anyone.
  if (demo && external && e.OWNER_TOKEN === undefined) {
    throw new ConfigError('OWNER_TOKEN: required when DEMO=true with a real service (CALLTRACKING_BASE_URL): without it the owner view would show real calls to anyone');
  }
  const publicUrl = e.PUBLIC_URL ?? `http://${e.HOST.includes(':') ? `[${e.HOST}]` : e.HOST}:${e.PORT}`;
  const allowedOrigins = e.ALLOWED_ORIGINS ?? (demo ? [new URL(publicUrl).origin] : undefined);
  if (!allowedOrigins)
    throw new ConfigError('ALLOWED_ORIGINS: required outside demo mode (comma-separated origins of the sites that embed the widget, e.g. https://shop.example.com)');
  const projectTimeZone = e.CALLTRACKING_TIMEZONE ?? simulator?.timeZone ?? DEFAULT_PROJECT_TIME_ZONE;
  if (!isTimeZone(projectTimeZone)) throw new ConfigError(`CALLTRACKING_TIMEZONE: expected an IANA time zone such as Europe/Kyiv, got "${projectTimeZone}"`);
  if (!isTimeZone(e.TIMEZONE)) throw new ConfigError(`TIMEZONE: expected an IANA time zone such as Europe/Kyiv, got "${e.TIMEZONE}"`);

  let schedule: WeeklySchedule | null = null;
  if (e.WORKING_HOURS) {
    try {
      schedule = parseWorkingHours(e.WORKING_HOURS);
    } catch (err) {
      throw new ConfigError(`WORKING_HOURS: ${(err as Error).message}`);
    }
  }
  let trustedProxies: CidrList;
  try {
    trustedProxies = parseCidrList(e.TRUSTED_PROXIES);
  } catch (err) {
    throw new ConfigError(`TRUSTED_PROXIES: ${(err as Error).message}`);
  }

  let protect: ProtectSettings;
  let leadWebhook: WebhookSettings | null;
  try {
    protect = protectSettings(e);
    leadWebhook = webhookSettings(e);
  } catch (err) {
    throw new ConfigError((err as Error).message);
  }
  const redis = redisSettings(e);
  // Hashes key the shared limits: relays that share Redis must agree on the secret.
  if (redis && e.HASH_SECRET === undefined) throw new ConfigError('HASH_SECRET: required with REDIS_URL (every relay that shares the Redis must use the same secret)');

  const service = external
    ? { baseUrl: e.CALLTRACKING_BASE_URL!, authKey: e.CALLTRACKING_AUTH_KEY!, projectId: projectId! }
    : { baseUrl: simulator!.baseUrl, authKey: e.CALLTRACKING_AUTH_KEY ?? simulator!.authKey, projectId: projectId! };

  return {
    warnings,
    port: e.PORT,
    host: e.HOST,
    publicUrl,
    demo,
    calltracking: { ...service, baseUrl: service.baseUrl.replace(/\/+$/, ''), timeZone: projectTimeZone },
    route: {
      token: e.ROUTE_WEBHOOK_TOKEN ?? null,
      fallback: e.ROUTE_FALLBACK ?? null,
      destinationField: e.ROUTE_DESTINATION_FIELD,
      reply: e.ROUTE_REPLY,
      statusWaitMs: e.ROUTE_STATUS_WAIT_MS,
    },
    ownerToken: e.OWNER_TOKEN ?? null,
    outcome: { pollMs: e.OUTCOME_POLL_MS, ringSeconds: e.CALL_RING_SECONDS },
    callback: {
      caller: caller!,
      callerType: e.CALLBACK_CALLER_TYPE,
      direction: e.CALLBACK_DIRECTION,
      managerDst: e.CALLBACK_MANAGER_DST,
    },
    allowedOrigins,
    defaultCountry: e.DEFAULT_COUNTRY,
    allowedCountries: e.ALLOWED_COUNTRIES ?? [e.DEFAULT_COUNTRY],
    trustedProxies,
    upstreamTimeoutMs: e.UPSTREAM_TIMEOUT_MS,
    statusCacheMs: e.STATUS_CACHE_MS,
    logLevel: e.LOG_LEVEL,
    logRepeatWindowMs: e.LOG_REPEAT_WINDOW_MS,
    schedule,
    timezone: e.TIMEZONE,
    scheduleMaxDays: e.SCHEDULE_MAX_DAYS,
    requireConsent: e.REQUIRE_CONSENT,
    consentLogPath: e.CONSENT_LOG_PATH ?? null,
    hashSecret: e.HASH_SECRET ?? randomBytes(32).toString('hex'),
    hashSecretGenerated: e.HASH_SECRET === undefined,
    widgetDir: e.WIDGET_DIR,
    demoDir: e.DEMO_DIR,
    protect,
    store: storeSettings(e),
    redis,
    leadWebhook,
    held: { queueMaxWaitSec: e.QUEUE_MAX_WAIT_SECONDS, redialAttempts: e.REDIAL_ATTEMPTS, redialDelaySec: e.REDIAL_DELAY_SECONDS },
  };
}

/** Every configured value that must never be printed: the logger replaces each with `[secret]`. */
export function secretsOf(config: Config): string[] {
  return [
    config.calltracking.authKey,
    config.hashSecret,
    config.route.token,
    config.ownerToken,
    config.protect.metricsToken,
    config.protect.turnstile?.secret,
    config.leadWebhook?.secret,
    ...redisSecrets(config.redis),
  ].filter((s): s is string => !!s);
}
