// HASH_SECRET keys every stored hash (numbers, clients, limits, fingerprints). Unset, the first start
// writes a random one to HASH_SECRET_FILE (by default DATA_DIR/hash-secret, readable by the relay's
// user only) and every later start reads it back, so a restart still recognises every number (the
// never-call list included). Why DATA_DIR by default, and its cost: storage/README.md.
import { randomBytes } from 'node:crypto';
import { readFileSync, unlinkSync, writeFileSync } from 'node:fs';
import { dirname, isAbsolute, join, relative, resolve } from 'node:path';
import { PRIVATE_FILE_MODE, privateDir } from './private-files.ts';

export const HASH_SECRET_FILE = 'hash-secret';

export interface KeptHashSecret {
  secret: string;
  /** The file it is kept in. */
  path: string;
  /** The file lies inside DATA_DIR: a backup of the directory holds it. */
  inDataDir: boolean;
  /** Where it was moved from (an earlier start's DATA_DIR/hash-secret), or null. */
  movedFrom: string | null;
}

function read(path: string): string | null {
  try {
    const kept = readFileSync(path, 'utf8').trim();
    if (kept.length >= 32) return kept;
    throw new Error(`${path} holds no usable secret; remove it (hashes made with it are lost) or set HASH_SECRET`);
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return null;
    throw err;
  }
}

/** Writes `secret` to a new file at `path` (0600, its directory made 0700 when missing); the secret another process wrote first when it lost the race. */
function write(path: string, secret: string): string {
  privateDir(dirname(path));
  // 'wx': never overwrite a secret another process wrote meanwhile; read that one instead.
  try {
    writeFileSync(path, `${secret}\n`, { flag: 'wx', mode: PRIVATE_FILE_MODE });
    return secret;
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'EEXIST') return readFileSync(path, 'utf8').trim();
    throw err;
  }
}

/**
 * The secret kept in `file` (HASH_SECRET_FILE; null: DATA_DIR/hash-secret), made on first use when
 * `create` (never with Redis: a file missing there is an error).
 */
export function keptHashSecret(options: { dataDir: string; file: string | null; create: boolean }): KeptHashSecret {
  const inData = join(options.dataDir, HASH_SECRET_FILE);
  const path = options.file ?? inData;
  const rel = relative(resolve(options.dataDir), resolve(path));
  const inDataDir = rel !== '' && !rel.startsWith('..') && !isAbsolute(rel);
  const kept = read(path);
  if (kept !== null) return { secret: kept, path, inDataDir, movedFrom: null };
  const earlier = resolve(path) === resolve(inData) ? null : read(inData);
  if (earlier !== null) {
    const secret = write(path, earlier);
    unlinkSync(inData);
    return { secret, path, inDataDir, movedFrom: inData };
  }
  if (!options.create) throw new Error(`HASH_SECRET_FILE: ${path} does not exist; with REDIS_URL every relay reads the same secret, so write it there first`);
  return { secret: write(path, randomBytes(32).toString('hex')), path, inDataDir, movedFrom: null };
}
