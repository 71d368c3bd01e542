// The one startup error a configuration gives, for the config tests: loadConfig must throw a
// ConfigError, and its one line is returned.
import { expect } from 'vitest';
import { ConfigError, type EnvRecord, loadConfig } from '../../server/src/config/index.ts';

export const testSimulator = { baseUrl: 'http://127.0.0.1:9999', authKey: 'sim-key-123456', projectId: '100500', caller: '380441112233' };

export function configErrorOf(env: EnvRecord, simulator: Parameters<typeof loadConfig>[1] = testSimulator): string {
  try {
    loadConfig(env, simulator);
  } catch (err) {
    expect(err).toBeInstanceOf(ConfigError);
    return (err as Error).message;
  }
  throw new Error('expected a ConfigError');
}
