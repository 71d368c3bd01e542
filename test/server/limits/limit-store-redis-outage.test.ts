// The Redis limit store when Redis is down or slow (a typed error at once, one log line each way, recovery without a new
// client), and the connection's metrics hooks. The store's own semantics: limit-store-redis.test.ts.
import { Registry } from 'prom-client';
import { describe, expect, it } from 'vitest';
import { deadUrl } from '../../support/listen.ts';
import { StoreUnavailableError } from '../../../server/src/storage/errors.ts';
import { connectRedis, type CommandOutcome } from '../../../server/src/storage/redis/connection.ts';
import { createRedisLimitStore } from '../../../server/src/limits/redis/limit-store.ts';
import { createRedisMetrics } from '../../../server/src/storage/redis/metrics.ts';
import { numberCheck, sec } from '../../support/limit-store-cases.ts';
import { type Line, redisLimitHarness } from './redis-limit-harness.ts';

const { server: redis, connect, track } = redisLimitHarness();

describe('Redis outage', () => {
  it('answers with a typed error at once while Redis is down, logs one line each way, and recovers without a new client', async () => {
    const lines: Line[] = [];
    const commands: Array<{ operation: string; outcome: CommandOutcome }> = [];
    const connection = connect({ lines, commands });
    expect(await connection.waitReady(5_000)).toBe(true);
    const store = createRedisLimitStore({ connection });
    expect((await store.consume([numberCheck('before')], sec(0))).ok).toBe(true);

    await redis().kill();
    try {
      for (let i = 0; i < 20; i++) {
        const started = performance.now();
        const error = await store.consume([numberCheck(`down${i}`)], sec(1)).then(
          () => null,
          (err: unknown) => err,
        );
        expect(error).toBeInstanceOf(StoreUnavailableError);
        expect(error).toMatchObject({ name: 'StoreUnavailableError', code: 'store_unavailable', operation: 'limits.consume' });
        expect(performance.now() - started).toBeLessThan(1_000);
      }
      await expect(store.peek(numberCheck('before'), sec(1))).rejects.toBeInstanceOf(StoreUnavailableError);
      await expect(store.acquire('k', 1, 1000, sec(1))).rejects.toBeInstanceOf(StoreUnavailableError);
      expect(connection.ready).toBe(false);
      expect(await connection.ping()).toBe(false);
    } finally {
      await redis().restart();
    }
    expect(await connection.waitReady(10_000)).toBe(true);
    // The data survived (AOF), and the same client works again.
    expect(await store.consume([numberCheck('before')], sec(2))).toEqual({ ok: false, refusals: [{ reason: 'number_cooldown', retryAfter: 118 }] });
    expect((await store.consume([numberCheck('after')], sec(2))).ok).toBe(true);

    const alerts = lines.filter((l) => l.msg.startsWith('ALERT redis unreachable'));
    expect(alerts).toHaveLength(1);
    expect(alerts[0]!.level).toBe('error');
    expect(lines.filter((l) => l.msg === 'redis reachable again')).toHaveLength(1);
    // Every command was observed, the refused ones as 'offline'.
    expect(commands.filter((c) => c.operation === 'limits.consume' && c.outcome === 'offline').length).toBeGreaterThanOrEqual(20);
    expect(commands.filter((c) => c.operation === 'limits.consume' && c.outcome === 'ok').length).toBeGreaterThanOrEqual(3);
  });

  it('does not hang on a Redis that stops answering: the deadline fails the command, and it recovers', async () => {
    const lines: Line[] = [];
    const connection = connect({ lines, timeoutMs: 300 });
    expect(await connection.waitReady(5_000)).toBe(true);
    const store = createRedisLimitStore({ connection });
    await redis().pause();
    try {
      const started = performance.now();
      await expect(store.consume([numberCheck('paused')], sec(0))).rejects.toMatchObject({ name: 'StoreUnavailableError', reason: 'timeout' });
      expect(performance.now() - started).toBeLessThan(1_000);
      // Suspect now: the next command fails at once rather than waiting out another deadline.
      const next = performance.now();
      await expect(store.peek(numberCheck('paused'), sec(0))).rejects.toMatchObject({ reason: 'disconnected' });
      expect(performance.now() - next).toBeLessThan(100);
      expect(connection.ready).toBe(false);
    } finally {
      await redis().resume();
    }
    expect(await connection.waitReady(5_000)).toBe(true);
    expect(await store.peek(numberCheck('paused'), sec(0))).toEqual(expect.any(Array));
    expect(lines.filter((l) => l.msg.startsWith('ALERT redis unreachable'))).toHaveLength(1);
    expect(lines.filter((l) => l.msg === 'redis reachable again')).toHaveLength(1);
  });
});

describe('Redis metrics', () => {
  it('shows command latency, errors and reachability in /metrics, also for a Redis that is down from the start', async () => {
    const registry = new Registry();
    const live = connectRedis(
      { url: redis().url, prefix: 'm1:', commandTimeoutMs: 500, connectTimeoutMs: 3_000 },
      { log: { info() {}, warn() {}, error() {} }, observer: createRedisMetrics(registry) },
    );
    track(live);
    expect(await live.waitReady(5_000)).toBe(true);
    await createRedisLimitStore({ connection: live }).consume([numberCheck('m')], sec(0));
    let text = await registry.metrics();
    expect(text).toContain('dialback_redis_command_duration_seconds_count{operation="limits.consume",outcome="ok"} 1');
    expect(text).toContain('dialback_redis_up 1');

    const lines: Line[] = [];
    const down = new Registry();
    const dead = connectRedis(
      { url: (await deadUrl()).replace('http:', 'redis:'), prefix: 'm2:', commandTimeoutMs: 500, connectTimeoutMs: 3_000 },
      {
        log: { info: () => {}, warn: (msg) => void lines.push({ level: 'warn', msg }), error: (msg) => void lines.push({ level: 'error', msg }) },
        observer: createRedisMetrics(down),
      },
    );
    track(dead);
    expect(await dead.waitReady(300)).toBe(false);
    const store = createRedisLimitStore({ connection: dead });
    for (let i = 0; i < 5; i++) await expect(store.peek(numberCheck('m'), sec(0))).rejects.toMatchObject({ code: 'store_unavailable', reason: 'disconnected' });
    text = await down.metrics();
    expect(text).toContain('dialback_redis_errors_total{operation="limits.peek",outcome="offline"} 5');
    expect(text).toContain('dialback_redis_up 0');
    // Retrying all along, yet one line.
    expect(lines.filter((l) => l.msg.startsWith('ALERT redis unreachable'))).toHaveLength(1);
  });
});
