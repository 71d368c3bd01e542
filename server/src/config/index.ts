// Environment → typed configuration, parsed once at startup, one area per module; this file only
// assembles them. A missing or malformed setting stops startup with one line that names it and says
// what is expected (ConfigError.message, worded by env.ts). main.ts is the only caller with the real
// process.env; tests pass plain objects.
import { type ConsentSettings, readConsent } from './consent.ts';
import { type EnvRecord, envReader } from './env.ts';
import { type HashSettings, readHash } from './hash.ts';
import { type HeldSettings, readHeld } from './held.ts';
import { type HttpSettings, readHttp } from './http.ts';
import { type ProtectSettings, readProtect } from './limits.ts';
import { type LogSettings, readLog } from './log.ts';
import { type OfficeSettings, readOffice } from './office.ts';
import { type OutcomeSettings, readOutcome } from './outcome.ts';
import { type OwnerSettings, readOwner } from './owner.ts';
import { type PhoneSettings, readPhone } from './phone.ts';
import { type RedisSettings, readRedis } from './redis.ts';
import { type ReportSettings, readReport } from './report.ts';
import { type RouteSettings, readRoute } from './route.ts';
import { readService, type ServiceFallbacks, type ServiceSettings, type SimulatorDefaults } from './service.ts';
import { readStore, type StoreSettings } from './store.ts';
import { readLeadWebhook, type WebhookSettings } from './webhooks.ts';

export { ConfigError, type EnvRecord } from './env.ts';
export { secretsOf } from './secrets.ts';
export type { ConsentSettings, HashSettings, HeldSettings, HttpSettings, LogSettings, OfficeSettings, OutcomeSettings, OwnerSettings, PhoneSettings };
export type { ProtectSettings, RedisSettings, ReportSettings, RouteSettings, ServiceFallbacks, ServiceSettings, SimulatorDefaults, StoreSettings, WebhookSettings };

/** Every setting, by area. */
export interface Config {
  /** Settings that fell back to a default an operator should replace: not settings themselves; main.ts logs each. */
  warnings: readonly string[];
  /** The call-tracking service (or the embedded simulator in demo mode) and the callback's parameters. */
  service: ServiceSettings;
  /** Listening, the public origin, allowed origins, trusted proxies, served folders. */
  http: HttpSettings;
  log: LogSettings;
  /** Which numbers are taken and where calls may go. */
  phone: PhoneSettings;
  /** Office hours (WORKING_HOURS, TIMEZONE). */
  office: OfficeSettings;
  /** Calls held for later: booked, queued, re-dialled. */
  held: HeldSettings;
  consent: ConsentSettings;
  /** The key of number and address hashes. */
  hash: HashSettings;
  /** The owner view (`/owner`). */
  owner: OwnerSettings;
  /** The routing webhook `/hooks/route/<token>`. */
  route: RouteSettings;
  /** Call outcomes: the shared call-log poll and ring time. */
  outcome: OutcomeSettings;
  /** Limits, idempotency, CAPTCHA, HTTP timeouts, readiness and metrics. */
  protect: ProtectSettings;
  /** The embedded store (DATA_DIR), used when `redis` is null. */
  store: StoreSettings;
  /** Shared state for several relays (REDIS_URL); null: the embedded store. */
  redis: RedisSettings | null;
  /** The owner's lead webhook; null: none. */
  leadWebhook: WebhookSettings | null;
  /** The lead report in the owner view. */
  report: ReportSettings;
}

/**
 * Builds the configuration. `simulator` supplies the service settings when CALLTRACKING_BASE_URL is
 * unset (main.ts starts the embedded simulator first); without either, startup stops. `fallbacks`
 * fill in the project id and caller against an external service, with a warning each.
 */
export function loadConfig(raw: EnvRecord, simulator?: SimulatorDefaults, fallbacks?: ServiceFallbacks): Config {
  const env = envReader(raw);
  const warnings: string[] = [];
  const service = readService(env, { simulator, fallbacks, warn: (line) => warnings.push(line) });
  const redis = readRedis(env);
  return {
    warnings,
    service,
    http: readHttp(env, service),
    log: readLog(env),
    phone: readPhone(env),
    office: readOffice(env),
    held: readHeld(env),
    consent: readConsent(env),
    hash: readHash(env, { shared: redis !== null }),
    owner: readOwner(env, service),
    route: readRoute(env),
    outcome: readOutcome(env),
    protect: readProtect(env),
    store: readStore(env),
    redis,
    leadWebhook: readLeadWebhook(env),
    report: readReport(env),
  };
}
