// What the relay keeps on disk is readable by the relay's user only: DATA_DIR 0700; the SQLite file
// and its -wal and -shm, the generated hash-secret and the consent records' file 0600. Files are
// created with those modes (a umask only takes bits away, and SQLite gives the -wal and -shm the
// mode of the database file), and modes an older relay or an operator left looser are tightened at
// startup, each change logged by the caller (main.ts). Only looser modes change: a stricter one
// (0400, a directory without group access) is the operator's and stays, and a path the relay's
// user does not own is left as it is and reported.
import { chmodSync, closeSync, mkdirSync, openSync, statSync } from 'node:fs';
import { join } from 'node:path';

export const PRIVATE_DIR_MODE = 0o700;
export const PRIVATE_FILE_MODE = 0o600;

export interface Tightened {
  path: string;
  /** Octal, e.g. '644'. */
  was: string;
  now: string;
  /** Why the mode could not be changed (EPERM: owned by another user); the file stays as it was. */
  failed?: string;
}

const octal = (mode: number) => (mode & 0o777).toString(8);

/** Takes the group's and others' bits off `path` when it has any; null when it is missing or already private. */
function tighten(path: string, mode: number): Tightened | null {
  let was: number;
  try {
    was = statSync(path).mode & 0o777;
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return null;
    throw err;
  }
  if ((was & 0o077) === 0) return null;
  const now = was & mode;
  try {
    chmodSync(path, now);
  } catch (err) {
    // Not ours to change (another user's directory the relay may write to): said, not fatal.
    return { path, was: octal(was), now: octal(was), failed: (err as NodeJS.ErrnoException).code ?? String(err) };
  }
  return { path, was: octal(was), now: octal(now) };
}

/** Creates `dir` (and missing parents) 0700, or tightens it. */
export function privateDir(dir: string): Tightened | null {
  mkdirSync(dir, { recursive: true, mode: PRIVATE_DIR_MODE });
  return tighten(dir, PRIVATE_DIR_MODE);
}

/** Creates `path` empty and 0600 when it is missing (before anything else writes it), or tightens it. */
export function privateFile(path: string, options: { create?: boolean } = {}): Tightened | null {
  if (options.create) closeSync(openSync(path, 'a', PRIVATE_FILE_MODE));
  return tighten(path, PRIVATE_FILE_MODE);
}

/** The SQLite file `name` in `dir` and the -wal and -shm beside it: each tightened when present. */
export function privateDatabaseFiles(dir: string, name: string): Tightened[] {
  return ['', '-wal', '-shm'].flatMap((suffix) => tighten(join(dir, name + suffix), PRIVATE_FILE_MODE) ?? []);
}

/** At startup: DATA_DIR, its SQLite files and `files` (the hash-secret, the consent file), each tightened when present and looser. */
export function tightenKeptFiles(options: { dataDir: string | null; databaseFile: string; files: ReadonlyArray<string | null> }): Tightened[] {
  const tightened: Tightened[] = [];
  if (options.dataDir !== null) {
    const dir = tighten(options.dataDir, PRIVATE_DIR_MODE);
    if (dir) tightened.push(dir);
    tightened.push(...privateDatabaseFiles(options.dataDir, options.databaseFile));
  }
  for (const file of options.files) {
    const done = file === null ? null : tighten(file, PRIVATE_FILE_MODE);
    if (done) tightened.push(done);
  }
  return tightened;
}
