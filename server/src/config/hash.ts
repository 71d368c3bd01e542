// HASH_SECRET, the key of every number and address hash (limit keys, consent records, stored
// numbers). Unset, a per-process one is generated here and main.ts replaces it with the one kept in
// a file (storage/hash-secret.ts), so hashes survive restarts: HASH_SECRET_FILE, by default
// DATA_DIR/hash-secret. A backup of a DATA_DIR that holds the file holds the key beside the hashes
// it keys, so an operator may keep it elsewhere (main.ts says so at startup).
import { randomBytes } from 'node:crypto';
import { type EnvReader, expectedError, requiredError } from './env.ts';

export interface HashSettings {
  secret: string;
  /** True when HASH_SECRET was unset and `secret` was generated. */
  generated: boolean;
  /** HASH_SECRET_FILE: where the secret is kept when HASH_SECRET is unset; null: DATA_DIR/hash-secret. */
  file: string | null;
}

/** `shared`: several relays share state (Redis); their hashes key the same limits, so they must agree. */
export function readHash(env: EnvReader, { shared }: { shared: boolean }): HashSettings {
  const secret = env.text('HASH_SECRET', { check: (s) => s.length >= 16, expected: 'a random secret of at least 16 characters', secret: true });
  const file = env.text('HASH_SECRET_FILE') ?? null;
  if (secret !== undefined && file !== null) throw expectedError('HASH_SECRET_FILE', 'unset while HASH_SECRET is set (one or the other)');
  if (secret === undefined && file === null && shared) {
    throw requiredError('HASH_SECRET', 'when REDIS_URL is set (every relay that shares the Redis must use the same secret; or HASH_SECRET_FILE, a file holding it)');
  }
  return secret === undefined ? { secret: randomBytes(32).toString('hex'), generated: true, file } : { secret, generated: false, file: null };
}
