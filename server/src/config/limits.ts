// The protection settings: every limit of the callback endpoint, idempotency, the CAPTCHA, the HTTP
// server's timeouts and connection caps, readiness and metrics, each with its environment variable
// and default.
import { type EnvReader, expectedError } from './env.ts';

/** The networks a visitor can rotate through, each limited on its own (limits/networks.ts). */
export type NetworkSize = 'ipv4_24' | 'ipv6_56' | 'ipv6_48';

export interface LimitSettings {
  numberCooldownSec: number;
  numberDaily: number;
  numberInFlight: number;
  clientRate: number;
  clientRateWindowSec: number;
  clientDaily: number;
  clientNumbersDaily: number;
  /** Refusals by the limits a client may collect per client-rate window before it is refused outright. */
  clientRefusals: number;
  prefixRate: number;
  prefixWindowSec: number;
  siteHourlyCap: number;
  siteDailyCap: number;
  maxKeys: number;
  /** Per network a visitor can rotate through; 0: that limit is off. */
  networks: Record<NetworkSize, { hourly: number; daily: number }>;
  /** Refusals a network (each of its sizes) may collect per client-rate window before it is refused outright. */
  networkRefusals: number;
  surge: SurgeSettings;
}

export interface SurgeSettings {
  /** Accepted calls of one site within `windowSec` that make a surge; 0: never. */
  calls: number;
  windowSec: number;
  /** Accepted calls of one site within the hour that make a surge too; 0: never. */
  hourlyCalls: number;
  /** While surging, a network (IPv4 /24, IPv6 /48) with this many accepted calls in the window is refused. */
  networkCalls: number;
}

export interface ProtectSettings {
  limits: LimitSettings;
  idempotency: { ttlSec: number; maxKeys: number };
  /** null: no CAPTCHA (the default). `required`: for every callback, or only while the site surges. */
  turnstile: { secret: string; verifyUrl: string; required: 'always' | 'surge' } | null;
  http: { headersTimeoutMs: number; requestTimeoutMs: number; keepAliveTimeoutMs: number; maxConnections: number; maxConnectionsPerClient: number };
  readyCacheMs: number;
  metricsToken: string | null;
}

export function readProtect(env: EnvReader): ProtectSettings {
  const siteHourlyCap = env.whole('SITE_HOURLY_CAP', 1, 65_000) ?? 100;
  const turnstileSecret = env.text('TURNSTILE_SECRET', { check: (s) => s.length >= 8, expected: 'the Turnstile secret key from the Cloudflare dashboard', secret: true });
  const turnstile = {
    verifyUrl: env.url('TURNSTILE_VERIFY_URL', 'http') ?? 'https://challenges.cloudflare.com/turnstile/v0/siteverify',
    required: env.oneOf('TURNSTILE_REQUIRED', ['always', 'surge'] as const) ?? 'always',
  };
  if (turnstile.required === 'surge' && !turnstileSecret) {
    throw expectedError('TURNSTILE_REQUIRED', 'always while TURNSTILE_SECRET is unset ("surge" turns on a CAPTCHA, which needs the secret)', 'surge');
  }
  const http = {
    headersTimeoutMs: env.duration('HEADERS_TIMEOUT_MS', 1_000, 120_000) ?? 10_000,
    requestTimeoutMs: env.duration('REQUEST_TIMEOUT_MS', 1_000, 300_000) ?? 15_000,
    keepAliveTimeoutMs: env.duration('KEEP_ALIVE_TIMEOUT_MS', 100, 120_000) ?? 5_000,
    maxConnections: env.whole('MAX_CONNECTIONS', 1, 1_000_000) ?? 1_000,
    maxConnectionsPerClient: env.whole('MAX_CONNECTIONS_PER_CLIENT', 1, 1_000_000) ?? 100,
  };
  if (http.headersTimeoutMs > http.requestTimeoutMs) {
    throw expectedError('HEADERS_TIMEOUT_MS', `at most REQUEST_TIMEOUT_MS (${http.requestTimeoutMs})`, String(http.headersTimeoutMs));
  }
  return {
    limits: { ...readLimits(env, siteHourlyCap), surge: readSurge(env, siteHourlyCap) },
    idempotency: { ttlSec: env.duration('IDEMPOTENCY_TTL_SECONDS', 60, 7 * 86_400) ?? 86_400, maxKeys: env.whole('IDEMPOTENCY_MAX_KEYS', 100, 1_000_000) ?? 100_000 },
    turnstile: turnstileSecret ? { secret: turnstileSecret, ...turnstile } : null,
    http,
    readyCacheMs: env.duration('READY_CACHE_MS', 0, 600_000) ?? 10_000,
    metricsToken: env.text('METRICS_TOKEN', { check: (s) => s.length >= 16, expected: 'a random token of at least 16 characters', secret: true }) ?? null,
  };
}

function readLimits(env: EnvReader, siteHourlyCap: number): Omit<LimitSettings, 'surge'> {
  // Hourly network limits are counted exactly (a sliding log, so at most 64); daily ones by the
  // weighted counter. 0 turns a network limit off.
  const network = (hourlyName: string, hourly: number, dailyName: string, daily: number) => ({
    hourly: env.whole(hourlyName, 0, 64) ?? hourly,
    daily: env.whole(dailyName, 0, 65_000) ?? daily,
  });
  return {
    numberCooldownSec: env.duration('LIMIT_NUMBER_COOLDOWN_SECONDS', 0, 86_400) ?? 120,
    numberDaily: env.whole('LIMIT_NUMBER_DAILY', 1, 65_000) ?? 3,
    numberInFlight: env.whole('LIMIT_NUMBER_IN_FLIGHT', 1, 10) ?? 1,
    clientRate: env.whole('LIMIT_CLIENT_RATE', 1, 65_000) ?? 3,
    clientRateWindowSec: env.duration('LIMIT_CLIENT_RATE_WINDOW_SECONDS', 1, 86_400) ?? 600,
    clientDaily: env.whole('LIMIT_CLIENT_DAILY', 1, 65_000) ?? 10,
    clientNumbersDaily: env.whole('LIMIT_CLIENT_NUMBERS_DAILY', 1, 32) ?? 2,
    clientRefusals: env.whole('LIMIT_CLIENT_REFUSALS', 1, 65_000) ?? 20,
    prefixRate: env.whole('LIMIT_PREFIX_RATE', 1, 65_000) ?? 5,
    prefixWindowSec: env.duration('LIMIT_PREFIX_WINDOW_SECONDS', 1, 86_400) ?? 600,
    siteHourlyCap,
    siteDailyCap: env.whole('SITE_DAILY_CAP', 1, 65_000) ?? 500,
    maxKeys: env.whole('LIMITER_MAX_KEYS', 1_000, 10_000_000) ?? 1_000_000,
    networks: {
      ipv4_24: network('LIMIT_NETWORK_IPV4_24_HOURLY', 20, 'LIMIT_NETWORK_IPV4_24_DAILY', 60),
      ipv6_56: network('LIMIT_NETWORK_IPV6_56_HOURLY', 10, 'LIMIT_NETWORK_IPV6_56_DAILY', 30),
      ipv6_48: network('LIMIT_NETWORK_IPV6_48_HOURLY', 20, 'LIMIT_NETWORK_IPV6_48_DAILY', 60),
    },
    networkRefusals: env.whole('LIMIT_NETWORK_REFUSALS', 1, 65_000) ?? 100,
  };
}

// A surge (limits/surge.ts): SURGE_CALLS accepted calls of one site within SURGE_WINDOW_SECONDS
// (unset: a fifth of SITE_HOURLY_CAP, at least 5, a pace that would use the hourly cap up in 25
// minutes), or SURGE_CAP_PERCENT of SITE_HOURLY_CAP within the hour (at least 5 calls), so a slower
// flood meets the surge defence before the breaker too. 0 turns a trigger off.
function readSurge(env: EnvReader, siteHourlyCap: number): SurgeSettings {
  const percent = env.whole('SURGE_CAP_PERCENT', 0, 100) ?? 50;
  return {
    calls: env.whole('SURGE_CALLS', 0, 65_000) ?? Math.max(5, Math.ceil(siteHourlyCap / 5)),
    windowSec: env.duration('SURGE_WINDOW_SECONDS', 60, 3_600) ?? 300,
    hourlyCalls: percent === 0 ? 0 : Math.max(5, Math.ceil((siteHourlyCap * percent) / 100)),
    networkCalls: env.whole('SURGE_NETWORK_CALLS', 1, 8) ?? 2,
  };
}
