// Builds the relay's protection pieces from the configuration: limits (with their store),
// idempotency, the optional CAPTCHA and the readiness probe. createRelay spreads the result into
// the AppContext; tests may build a relay with any of them replaced.
import type { Config } from '../config/index.ts';
import type { CallTrackingClient } from '../calltracking/client.ts';
import type { Logger } from '../log/index.ts';
import type { RelayMetrics } from '../metrics/relay-metrics.ts';
import { createReadiness, type Readiness } from '../metrics/readiness.ts';
import { createTurnstile, type Captcha } from '../captcha/turnstile.ts';
import { createCaptchaGate } from '../captcha/captcha-gate.ts';
import type { IdempotencyStore } from '../idempotency/idempotency-store.ts';
import { createLimiter, type Limiter } from '../limits/index.ts';
import type { LimitStore } from '../limits/limit-store.ts';
import type { SharedState } from '../shared-state/shared-state.ts';

export interface Protection {
  metrics: RelayMetrics;
  limiter: Limiter;
  idempotency: IdempotencyStore;
  /** null when TURNSTILE_SECRET is unset. */
  captcha: Captcha | null;
  readiness: Readiness;
}

export interface ProtectionDeps {
  config: Config;
  log: Logger;
  client: CallTrackingClient;
  metrics: RelayMetrics;
  /** The limit state (relay-stores.ts). */
  limitStore: LimitStore;
  /** The Idempotency-Key records (relay-stores.ts). */
  idempotency: IdempotencyStore;
  /** Wraps the limiter (Redis: blocked clients answered from memory; relay-stores.ts). */
  wrapLimiter?: ((limiter: Limiter, now?: () => number) => Limiter) | undefined;
  /** Shared with other relays (Redis): the site breaker's open state and alert. */
  shared?: SharedState | undefined;
  now?: () => number;
}

export function createProtection(deps: ProtectionDeps): Protection {
  const { config, log, metrics } = deps;
  const p = config.protect;
  // The store's time origin follows the relay's clock, so a test clock may start anywhere.
  const store = deps.limitStore;
  const idempotency = deps.idempotency;
  metrics.registry.onCollect(async () => {
    try {
      metrics.idempotencyKeys.set(await idempotency.size());
    } catch {
      // A shared store that is down: /metrics still answers (dialback_redis_up says why).
    }
  });
  const own = createLimiter({
    settings: p.limits,
    store,
    hashSecret: config.hash.secret,
    log,
    metrics,
    // A placed call holds its number at most this long, even if a release were lost.
    inFlightTtlMs: config.service.upstreamTimeoutMs * 2 + 5_000,
    ...(deps.now && { now: deps.now }),
    ...(deps.shared && { shared: deps.shared }),
  });
  const limiter = deps.wrapLimiter ? deps.wrapLimiter(own, deps.now) : own;
  const shared = deps.shared;
  const readiness = createReadiness(deps.client, { cacheMs: p.readyCacheMs, log, ...(shared && { storeReady: () => shared.ready }) });
  // dialback_ready is true in /metrics too, not only as of the last /readyz (the check is cached).
  metrics.registry.onCollect(async () => {
    metrics.ready.set((await readiness.check()).ready ? 1 : 0);
  });
  return {
    metrics,
    limiter,
    idempotency,
    captcha: p.turnstile
      ? createCaptchaGate({ check: createTurnstile({ secret: p.turnstile.secret, verifyUrl: p.turnstile.verifyUrl }), required: p.turnstile.required, limiter })
      : null,
    readiness,
  };
}
