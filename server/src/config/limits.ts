// The protection settings: every limit of the callback endpoint, with its environment variable and
// default (design.md §6). config.ts spreads `protectEnv` into its schema table, so a bad value
// stops startup with the variable's name like every other setting.
import { z } from 'zod';
import { wholeNumber as whole } from './env-number.ts';

/** The networks a visitor can rotate through, each limited on its own (limits/networks.ts). */
export type NetworkSize = 'ipv4_24' | 'ipv6_56' | 'ipv6_48';

export const protectEnv = {
  LIMIT_NUMBER_COOLDOWN_SECONDS: whole(0, 86_400).default(120),
  LIMIT_NUMBER_DAILY: whole(1, 65_000).default(3),
  LIMIT_NUMBER_IN_FLIGHT: whole(1, 10).default(1),
  LIMIT_CLIENT_RATE: whole(1, 65_000).default(3),
  LIMIT_CLIENT_RATE_WINDOW_SECONDS: whole(1, 86_400).default(600),
  LIMIT_CLIENT_DAILY: whole(1, 65_000).default(10),
  LIMIT_CLIENT_NUMBERS_DAILY: whole(1, 32).default(2),
  LIMIT_CLIENT_REFUSALS: whole(1, 65_000).default(20),
  LIMIT_PREFIX_RATE: whole(1, 65_000).default(5),
  LIMIT_PREFIX_WINDOW_SECONDS: whole(1, 86_400).default(600),
  // The networks a visitor can rotate through (networks.ts). Hourly limits are counted exactly
  // (a sliding log, so at most 64); daily ones by the weighted counter. 0 turns a limit off.
  LIMIT_NETWORK_IPV4_24_HOURLY: whole(0, 64).default(20),
  LIMIT_NETWORK_IPV4_24_DAILY: whole(0, 65_000).default(60),
  LIMIT_NETWORK_IPV6_56_HOURLY: whole(0, 64).default(10),
  LIMIT_NETWORK_IPV6_56_DAILY: whole(0, 65_000).default(30),
  LIMIT_NETWORK_IPV6_48_HOURLY: whole(0, 64).default(20),
  LIMIT_NETWORK_IPV6_48_DAILY: whole(0, 65_000).default(60),
  LIMIT_NETWORK_REFUSALS: whole(1, 65_000).default(100),
  // A surge (surge.ts): SURGE_CALLS accepted calls of one site within SURGE_WINDOW_SECONDS (unset:
  // a fifth of SITE_HOURLY_CAP, at least 5 — a pace that would use the hourly cap up in 25
  // minutes), or SURGE_CAP_PERCENT of SITE_HOURLY_CAP within the hour (at least 5 calls), so a
  // slower flood meets the surge defence before the breaker too. 0 turns a trigger off.
  SURGE_CALLS: whole(0, 65_000).optional(),
  SURGE_CAP_PERCENT: whole(0, 100).default(50),
  SURGE_WINDOW_SECONDS: whole(60, 3_600).default(300),
  SURGE_NETWORK_CALLS: whole(1, 8).default(2),
  SITE_HOURLY_CAP: whole(1, 65_000).default(100),
  SITE_DAILY_CAP: whole(1, 65_000).default(500),
  LIMITER_MAX_KEYS: whole(1_000, 10_000_000).default(1_000_000),
  IDEMPOTENCY_TTL_SECONDS: whole(60, 7 * 86_400).default(86_400),
  IDEMPOTENCY_MAX_KEYS: whole(100, 1_000_000).default(100_000),
  TURNSTILE_SECRET: z.string().min(8, 'expected the Turnstile secret key from the Cloudflare dashboard').optional(),
  TURNSTILE_VERIFY_URL: z
    .string()
    .url('expected an http(s) URL')
    .refine((u) => /^https?:/.test(u), 'expected an http(s) URL')
    .default('https://challenges.cloudflare.com/turnstile/v0/siteverify'),
  TURNSTILE_REQUIRED: z.enum(['always', 'surge'], { message: 'expected always or surge' }).default('always'),
  HEADERS_TIMEOUT_MS: whole(1_000, 120_000).default(10_000),
  REQUEST_TIMEOUT_MS: whole(1_000, 300_000).default(15_000),
  KEEP_ALIVE_TIMEOUT_MS: whole(100, 120_000).default(5_000),
  MAX_CONNECTIONS: whole(1, 1_000_000).default(1_000),
  MAX_CONNECTIONS_PER_CLIENT: whole(1, 1_000_000).default(100),
  READY_CACHE_MS: whole(0, 600_000).default(10_000),
  METRICS_TOKEN: z.string().min(16, 'expected a random token of at least 16 characters').optional(),
} satisfies Record<string, z.ZodType>;

type ProtectEnv = { [K in keyof typeof protectEnv]: z.output<(typeof protectEnv)[K]> };

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

/** Throws an Error whose message starts with the variable's name (config.ts makes it a ConfigError). */
export function protectSettings(e: ProtectEnv): ProtectSettings {
  if (e.HEADERS_TIMEOUT_MS > e.REQUEST_TIMEOUT_MS) {
    throw new Error(`HEADERS_TIMEOUT_MS: expected at most REQUEST_TIMEOUT_MS (${e.REQUEST_TIMEOUT_MS}), got ${e.HEADERS_TIMEOUT_MS}`);
  }
  if (e.TURNSTILE_REQUIRED === 'surge' && !e.TURNSTILE_SECRET) {
    throw new Error('TURNSTILE_REQUIRED: "surge" needs TURNSTILE_SECRET (the CAPTCHA it turns on)');
  }
  return {
    limits: {
      numberCooldownSec: e.LIMIT_NUMBER_COOLDOWN_SECONDS,
      numberDaily: e.LIMIT_NUMBER_DAILY,
      numberInFlight: e.LIMIT_NUMBER_IN_FLIGHT,
      clientRate: e.LIMIT_CLIENT_RATE,
      clientRateWindowSec: e.LIMIT_CLIENT_RATE_WINDOW_SECONDS,
      clientDaily: e.LIMIT_CLIENT_DAILY,
      clientNumbersDaily: e.LIMIT_CLIENT_NUMBERS_DAILY,
      clientRefusals: e.LIMIT_CLIENT_REFUSALS,
      prefixRate: e.LIMIT_PREFIX_RATE,
      prefixWindowSec: e.LIMIT_PREFIX_WINDOW_SECONDS,
      siteHourlyCap: e.SITE_HOURLY_CAP,
      siteDailyCap: e.SITE_DAILY_CAP,
      maxKeys: e.LIMITER_MAX_KEYS,
      networks: {
        ipv4_24: { hourly: e.LIMIT_NETWORK_IPV4_24_HOURLY, daily: e.LIMIT_NETWORK_IPV4_24_DAILY },
        ipv6_56: { hourly: e.LIMIT_NETWORK_IPV6_56_HOURLY, daily: e.LIMIT_NETWORK_IPV6_56_DAILY },
        ipv6_48: { hourly: e.LIMIT_NETWORK_IPV6_48_HOURLY, daily: e.LIMIT_NETWORK_IPV6_48_DAILY },
      },
      networkRefusals: e.LIMIT_NETWORK_REFUSALS,
      surge: {
        calls: e.SURGE_CALLS ?? Math.max(5, Math.ceil(e.SITE_HOURLY_CAP / 5)),
        windowSec: e.SURGE_WINDOW_SECONDS,
        hourlyCalls: e.SURGE_CAP_PERCENT === 0 ? 0 : Math.max(5, Math.ceil((e.SITE_HOURLY_CAP * e.SURGE_CAP_PERCENT) / 100)),
        networkCalls: e.SURGE_NETWORK_CALLS,
      },
    },
    idempotency: { ttlSec: e.IDEMPOTENCY_TTL_SECONDS, maxKeys: e.IDEMPOTENCY_MAX_KEYS },
    turnstile: e.TURNSTILE_SECRET ? { secret: e.TURNSTILE_SECRET, verifyUrl: e.TURNSTILE_VERIFY_URL, required: e.TURNSTILE_REQUIRED } : null,
    http: {
      headersTimeoutMs: e.HEADERS_TIMEOUT_MS,
      requestTimeoutMs: e.REQUEST_TIMEOUT_MS,
      keepAliveTimeoutMs: e.KEEP_ALIVE_TIMEOUT_MS,
      maxConnections: e.MAX_CONNECTIONS,
      maxConnectionsPerClient: e.MAX_CONNECTIONS_PER_CLIENT,
    },
    readyCacheMs: e.READY_CACHE_MS,
    metricsToken: e.METRICS_TOKEN ?? null,
  };
}
