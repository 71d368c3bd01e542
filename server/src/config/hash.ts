// HASH_SECRET, the key of every number and address hash (limit keys, consent records, stored
// numbers). Unset, a per-process one is generated here and main.ts replaces it with the one kept
// in DATA_DIR, so hashes survive restarts.
import { randomBytes } from 'node:crypto';
import { type EnvReader, requiredError } from './env.ts';

export interface HashSettings {
  secret: string;
  /** True when HASH_SECRET was unset and `secret` was generated. */
  generated: boolean;
}

/** `shared`: several relays share state (Redis); their hashes key the same limits, so they must agree. */
export function readHash(env: EnvReader, { shared }: { shared: boolean }): HashSettings {
  const secret = env.text('HASH_SECRET', { check: (s) => s.length >= 16, expected: 'a random secret of at least 16 characters', secret: true });
  if (secret === undefined && shared) throw requiredError('HASH_SECRET', 'when REDIS_URL is set (every relay that shares the Redis must use the same secret)');
  return secret === undefined ? { secret: randomBytes(32).toString('hex'), generated: true } : { secret, generated: false };
}
