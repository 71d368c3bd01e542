// A limiter as the relay builds it, over a limit store the test gives (memory by default), with the
// limits an operator would write in the environment and a clock the test moves on.
import { loadConfig } from '../../server/src/config/index.ts';
import { createLogger } from '../../server/src/log/index.ts';
import { createRelayMetrics } from '../../server/src/metrics/relay-metrics.ts';
import type { LimitStore } from '../../server/src/limits/limit-store.ts';
import { createLimiter, type Limiter } from '../../server/src/limits/limiter.ts';
import { createMemoryLimitStore } from '../../server/src/limits/memory/limit-store.ts';

export const LIMITER_T0 = Date.parse('2026-11-20T10:00:00Z');

export function testLimiter(
  env: Record<string, string>,
  store: LimitStore = createMemoryLimitStore({ maxKeysPerTable: 1000, startMs: LIMITER_T0 }),
): { limiter: Limiter; clock: { now: number } } {
  const config = loadConfig(env, { baseUrl: 'http://127.0.0.1:1', authKey: 'sim-auth-key', projectId: '1', caller: '380441112233' });
  const clock = { now: LIMITER_T0 };
  const limiter = createLimiter({
    settings: config.protect.limits,
    store,
    hashSecret: 'test-hash-secret-0123456789',
    log: createLogger({ level: 'silent' }),
    metrics: createRelayMetrics(),
    inFlightTtlMs: 10_000,
    now: () => clock.now,
  });
  return { limiter, clock };
}
