// HASH_SECRET keys every stored hash (numbers, clients, limits, fingerprints). Unset, the relay must
// not make a new one at each start: the store would then no longer recognise a single number or
// client after a restart (the never-call list included), and every limit would start afresh. So
// the first start writes a random secret to a file, readable by the relay's user only, and every
// later start reads it back: HASH_SECRET_FILE, by default DATA_DIR/hash-secret.
//
// Decision: the default stays in DATA_DIR, the one directory an operator is told to keep across
// restarts and deploys (a volume). A default elsewhere would be lost with a container's file system,
// and a new secret at each deploy silently unlists every number on the never-call list. The cost is
// that a backup of DATA_DIR holds the keyed hashes and their key together; main.ts says so at every
// start, and HASH_SECRET_FILE (or HASH_SECRET) keeps the key elsewhere. Setting HASH_SECRET_FILE
// moves a DATA_DIR/hash-secret an earlier start made there, so hashes made with it still match.
// (With REDIS_URL the secret is never made here: relays must share it, from HASH_SECRET or the file.)
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
