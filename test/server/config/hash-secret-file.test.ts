// HASH_SECRET_FILE: where the generated secret is kept (DATA_DIR/hash-secret by default). One of it
// and HASH_SECRET; with REDIS_URL either does (every relay reads the same file, never made there).
import { expect, it } from 'vitest';
import { loadConfig } from '../../../server/src/config/index.ts';
import { configErrorOf, testSimulator } from '../../support/config-error.ts';

it('reads HASH_SECRET_FILE, refuses it beside HASH_SECRET, and takes it instead of HASH_SECRET with Redis', () => {
  expect(loadConfig({}, testSimulator).hash).toMatchObject({ generated: true, file: null });
  expect(loadConfig({ HASH_SECRET_FILE: '/etc/dialback/hash-secret' }, testSimulator).hash).toMatchObject({ generated: true, file: '/etc/dialback/hash-secret' });
  expect(configErrorOf({ HASH_SECRET: 'a-very-long-secret-value', HASH_SECRET_FILE: '/etc/dialback/hash-secret' })).toBe(
    'HASH_SECRET_FILE: expected unset while HASH_SECRET is set (one or the other)',
  );
  const redis = { REDIS_URL: 'redis://127.0.0.1:6379' };
  expect(configErrorOf(redis)).toMatch(/^HASH_SECRET: required when REDIS_URL is set .*HASH_SECRET_FILE/);
  expect(loadConfig({ ...redis, HASH_SECRET_FILE: '/run/secrets/dialback' }, testSimulator).hash).toMatchObject({ generated: true, file: '/run/secrets/dialback' });
});
