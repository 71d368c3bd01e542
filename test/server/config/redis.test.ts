// The Redis settings (REDIS_URL, REDIS_PREFIX, REDIS_TIMEOUT_MS): read on their own, and a bad one
// named in one line that never echoes the URL (it may carry a password).
import { describe, expect, it } from 'vitest';
import { envReader } from '../../../server/src/config/env.ts';
import { readRedis, redisSecrets } from '../../../server/src/config/redis.ts';

describe('Redis settings', () => {
  const readRedisSettings = (vars: Record<string, string>) => readRedis(envReader(vars));

  it('reads REDIS_URL and REDIS_PREFIX, and names a bad one in one line without echoing it', () => {
    expect(readRedisSettings({})).toBeNull();
    expect(readRedisSettings({ REDIS_URL: 'rediss://user:secret@redis.example.com:6380/2' })).toEqual({
      url: 'rediss://user:secret@redis.example.com:6380/2',
      prefix: 'dialback:',
      commandTimeoutMs: 1000,
      connectTimeoutMs: 3000,
      checkIntervalMs: 1000,
    });
    expect(readRedisSettings({ REDIS_URL: 'redis://127.0.0.1', REDIS_PREFIX: 'shop-eu:' })?.prefix).toBe('shop-eu:');
    for (const bad of ['http://user:secret@host', 'redis://', 'secret:6379', 'redis://:secret@host/db', 'redis://:secret@host:port']) {
      expect(() => readRedisSettings({ REDIS_URL: bad })).toThrow(/^REDIS_URL: expected redis:\/\//);
      try {
        readRedisSettings({ REDIS_URL: bad });
      } catch (err) {
        expect((err as Error).message).not.toContain('secret');
        expect((err as Error).message).not.toContain('\n');
      }
    }
    expect(() => readRedisSettings({ REDIS_URL: 'redis://h', REDIS_PREFIX: 'a{b}' })).toThrow(/^REDIS_PREFIX: expected/);
    expect(() => readRedisSettings({ REDIS_URL: 'redis://h', REDIS_TIMEOUT_MS: '10' })).toThrow(/^REDIS_TIMEOUT_MS: expected a whole number/);
    expect(readRedisSettings({ REDIS_URL: 'redis://h', REDIS_CHECK_MS: '250' })?.checkIntervalMs).toBe(250);
    expect(() => readRedisSettings({ REDIS_URL: 'redis://h', REDIS_CHECK_MS: '0' })).toThrow(/^REDIS_CHECK_MS: expected a whole number from 50 to 60000 milliseconds/);
  });

  it('reads Sentinel, Cluster and replica settings, and names a wrong or missing one in one line without a password', () => {
    const sentinel = readRedisSettings({ REDIS_SENTINELS: '10.0.0.5:26379, 10.0.0.6:26379', REDIS_SENTINEL_NAME: 'mymaster', REDIS_SENTINEL_PASSWORD: 's3cret' });
    expect(sentinel?.topology).toEqual({
      kind: 'sentinel',
      sentinels: [
        { host: '10.0.0.5', port: 26379 },
        { host: '10.0.0.6', port: 26379 },
      ],
      name: 'mymaster',
      sentinelPassword: 's3cret',
    });
    expect(redisSecrets(sentinel)).toContain('s3cret');
    const cluster = readRedisSettings({ REDIS_CLUSTER: 'true', REDIS_URL: 'redis://:pw@10.0.0.1:6379,redis://:pw@10.0.0.2:6379' });
    expect(cluster?.topology).toEqual({ kind: 'cluster', seeds: ['redis://:pw@10.0.0.1:6379', 'redis://:pw@10.0.0.2:6379'] });
    expect(cluster?.url).toBe('redis://:pw@10.0.0.1:6379');
    expect(readRedisSettings({ REDIS_URL: 'redis://h', REDIS_MIN_REPLICAS: '1' })?.durability).toEqual({ minReplicas: 1, replicaWaitMs: 100 });
    expect(readRedisSettings({ REDIS_URL: 'redis://h' })?.durability).toBeUndefined();
    const mistakes: Array<[Record<string, string>, RegExp]> = [
      [{ REDIS_SENTINELS: '10.0.0.5' }, /^REDIS_SENTINELS: expected a comma-separated list of host:port/],
      [{ REDIS_SENTINELS: '10.0.0.5:26379' }, /^REDIS_SENTINEL_NAME: required with REDIS_SENTINELS/],
      [{ REDIS_SENTINEL_NAME: 'mymaster' }, /^REDIS_SENTINELS: required with REDIS_SENTINEL_NAME/],
      [{ REDIS_SENTINELS: '10.0.0.5:26379', REDIS_SENTINEL_NAME: 'm', REDIS_CLUSTER: 'true' }, /^REDIS_CLUSTER: expected false or unset with REDIS_SENTINELS/],
      [{ REDIS_CLUSTER: 'true' }, /^REDIS_URL: required with REDIS_CLUSTER=true/],
      [{ REDIS_URL: 'redis://:pw@a,redis://:pw@b' }, /^REDIS_URL: expected one URL \(several, comma-separated, only with REDIS_CLUSTER=true\)$/],
      [{ REDIS_URL: 'redis://:pw@a,http://:pw@b', REDIS_CLUSTER: 'true' }, /^REDIS_URL: expected redis:\/\//],
      [{ REDIS_URL: 'redis://h', REDIS_MIN_REPLICAS: 'two' }, /^REDIS_MIN_REPLICAS: expected a whole number from 0 to 16, got "two"$/],
      [{ REDIS_URL: 'redis://h', REDIS_REPLICA_WAIT_MS: '0' }, /^REDIS_REPLICA_WAIT_MS: expected a whole number from 1 to 10000 milliseconds/],
    ];
    for (const [vars, error] of mistakes) {
      expect(() => readRedisSettings(vars)).toThrow(error);
      try {
        readRedisSettings(vars);
      } catch (err) {
        expect((err as Error).message).not.toContain('pw');
      }
    }
  });
});
