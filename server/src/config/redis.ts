// Shared state for several relays (REDIS_URL, REDIS_PREFIX, REDIS_TIMEOUT_MS, REDIS_CHECK_MS, and
// the topology: redis-topology.ts); unset REDIS_URL and REDIS_SENTINELS: the embedded store. A
// REDIS_URL may carry a password, so its errors never echo the value.
import type { EnvReader } from './env.ts';
import { type RedisDurability, type RedisTopology, readRedisDurability, readRedisTopology } from './redis-topology.ts';

export interface RedisSettings {
  /** The one URL (standalone); the first seed (cluster); the data nodes' credentials (sentinel). */
  url: string;
  /** Standalone when not given (tests build settings by hand). */
  topology?: RedisTopology;
  /** WAIT for replicas after the writes that prevent a second call; none when not given. */
  durability?: RedisDurability;
  prefix: string;
  /** Deadline of one command (REDIS_TIMEOUT_MS). */
  commandTimeoutMs: number;
  /** Deadline of one connection attempt: the command deadline, at least 3 s (TLS handshakes). */
  connectTimeoutMs: number;
  /** How often the write check runs (REDIS_CHECK_MS): how soon /readyz sees a read-only or full Redis. */
  checkIntervalMs?: number;
}

function isRedisUrl(value: string): boolean {
  const url = URL.parse(value);
  if (!url || (url.protocol !== 'redis:' && url.protocol !== 'rediss:') || !url.hostname) return false;
  // The path, if any, is the database number.
  return url.pathname === '' || url.pathname === '/' || /^\/\d{1,2}$/.test(url.pathname);
}

function splitUrls(value: string): string[] {
  const urls = value.split(',').map((u) => u.trim());
  return urls.filter(Boolean).length > 0 ? urls : [''];
}

/** null: REDIS_URL and REDIS_SENTINELS are unset, the relay keeps its state in the embedded store. */
export function readRedis(env: EnvReader): RedisSettings | null {
  // Several comma-separated URLs only make sense with REDIS_CLUSTER (redis-topology.ts says so).
  const urls = env
    .text('REDIS_URL', { check: (v) => splitUrls(v).every(isRedisUrl), expected: 'redis://[user:password@]host[:port][/db] or rediss://… (TLS)', secret: true })
    ?.split(',')
    .map((u) => u.trim())
    .filter(Boolean);
  const topology = readRedisTopology(env, urls);
  const durability = readRedisDurability(env);
  // With Sentinel the URL only carries credentials: its host is never used.
  const url = urls?.[0] ?? (topology.kind === 'sentinel' ? 'redis://sentinel-primary' : undefined);
  const prefix =
    env.text('REDIS_PREFIX', { pattern: /^[A-Za-z0-9_.:-]{1,64}$/, expected: '1 to 64 letters, digits or _ . : - (no braces: the store adds its own hash tags)' }) ?? 'dialback:';
  // Longest wait for one Redis command before the request is answered 503; also bounds connecting.
  const commandTimeoutMs = env.duration('REDIS_TIMEOUT_MS', 50, 30_000) ?? 1000;
  // How soon /readyz notices a Redis that answers but refuses writes (replica, full): one SET each time.
  const checkIntervalMs = env.duration('REDIS_CHECK_MS', 50, 60_000) ?? 1000;
  if (url === undefined) return null;
  const settings: RedisSettings = { url, prefix, commandTimeoutMs, connectTimeoutMs: Math.max(3_000, commandTimeoutMs), checkIntervalMs };
  if (topology.kind !== 'standalone') settings.topology = topology;
  if (durability.minReplicas > 0) settings.durability = durability;
  return settings;
}

/** The password in REDIS_URL, if any: for the logger's list of secrets to mask. */
export function redisSecrets(settings: RedisSettings | null): string[] {
  if (!settings) return [];
  const urls = settings.topology?.kind === 'cluster' ? settings.topology.seeds : [settings.url];
  const sentinel = settings.topology?.kind === 'sentinel' ? settings.topology.sentinelPassword : undefined;
  return [...urls.flatMap((u) => passwordOf(new URL(u))), ...(sentinel ? [sentinel] : [])];
}

function passwordOf(url: URL): string[] {
  return url.password ? [decodeURIComponent(url.password), url.password] : [];
}
