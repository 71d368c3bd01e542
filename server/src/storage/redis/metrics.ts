// The Redis connection's view in /metrics (prom-client): pass the result as `observer` to
// connectRedis. Operations are a fixed set (limits.consume, limits.peek, …, ping), so the labels
// stay bounded.
//   dialback_redis_command_duration_seconds{operation,outcome}  histogram; outcome ok|error|timeout|offline
//   dialback_redis_errors_total{operation,outcome}              every command that did not answer ok
//   dialback_redis_up                                           1 while Redis is reachable
//   dialback_redis_writable                                     1 while Redis takes writes (the write check)
import { Counter, Gauge, Histogram, type Registry } from 'prom-client';
import type { RedisObserver } from './connection.ts';

export function createRedisMetrics(registry: Registry): RedisObserver {
  const duration = new Histogram({
    name: 'dialback_redis_command_duration_seconds',
    help: 'Redis commands (one Lua script per store operation) by operation and outcome',
    labelNames: ['operation', 'outcome'] as const,
    // Loopback answers in ~0.1 ms, a LAN in ~1 ms; the deadline (REDIS_TIMEOUT_MS) is 1 s by default.
    buckets: [0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5],
    registers: [registry],
  });
  const errors = new Counter({
    name: 'dialback_redis_errors_total',
    help: 'Redis commands that failed: error (Redis answered an error), timeout (no answer in time), offline (not sent: no connection)',
    labelNames: ['operation', 'outcome'] as const,
    registers: [registry],
  });
  const up = new Gauge({ name: 'dialback_redis_up', help: '1 while Redis is reachable and answering', registers: [registry] });
  up.set(0);
  const writable = new Gauge({
    name: 'dialback_redis_writable',
    help: '1 while Redis takes writes: 0 when unreachable, read-only (a replica), out of memory, a cluster node without REDIS_CLUSTER, or replicas not acknowledging',
    registers: [registry],
  });
  writable.set(0);
  return {
    command(operation, seconds, outcome) {
      duration.observe({ operation, outcome }, seconds);
      if (outcome !== 'ok') errors.inc({ operation, outcome });
    },
    state(isUp) {
      up.set(isUp ? 1 : 0);
    },
    writable(isWritable) {
      writable.set(isWritable ? 1 : 0);
    },
  };
}
