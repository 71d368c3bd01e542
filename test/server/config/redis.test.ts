// The Redis settings (REDIS_URL, REDIS_PREFIX, REDIS_TIMEOUT_MS): read on their own, and a bad one
// named in one line that never echoes the URL (it may carry a password).
import { describe, expect, it } from 'vitest';
import { envReader } from '../../../server/src/config/env.ts';
import { readRedis } from '../../../server/src/config/redis.ts';

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
});
