// HASH_SECRET keys every stored hash (numbers, clients, limits, fingerprints). Unset, the relay must
// not make a new one at each start: the embedded store would then no longer recognise a single
// number or client after a restart, and every limit would start afresh. So the first start writes
// a random secret to DATA_DIR/hash-secret (readable by the relay's user only) and every later start
// reads it back. (With REDIS_URL, HASH_SECRET is required instead: relays must share it.)
import { randomBytes } from 'node:crypto';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

export const HASH_SECRET_FILE = 'hash-secret';

export function loadOrCreateHashSecret(dataDir: string): string {
  const path = join(dataDir, HASH_SECRET_FILE);
  try {
    const kept = readFileSync(path, 'utf8').trim();
    if (kept.length >= 32) return kept;
    throw new Error(`${path} holds no usable secret; remove it (hashes made with it are lost) or set HASH_SECRET`);
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'ENOENT') throw err;
  }
  mkdirSync(dataDir, { recursive: true });
  const secret = randomBytes(32).toString('hex');
  // 'wx': never overwrite a secret another process wrote meanwhile; read that one instead.
  try {
    writeFileSync(path, `${secret}\n`, { flag: 'wx', mode: 0o600 });
    return secret;
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'EEXIST') return readFileSync(path, 'utf8').trim();
    throw err;
  }
}
