// The embedded store's one SQLite file, DATA_DIR/dialback.sqlite, opened and migrated at startup:
// WAL (readers never wait for the writer), synchronous=NORMAL (a kill -9 loses nothing committed; only
// a power loss may drop the commits since the last checkpoint, and no fsync runs on the event loop),
// busy_timeout for a second process, files readable by the relay's user only. Why NORMAL and not
// FULL: storage/README.md.
import { accessSync, constants } from 'node:fs';
import { join, resolve } from 'node:path';
import { DatabaseSync } from 'node:sqlite';
import { privateDatabaseFiles, privateDir, privateFile } from '../private-files.ts';
import { migrate, type Migration } from './migrations.ts';
import { migrations as defaultMigrations } from './schema.ts';

export const DATABASE_FILE = 'dialback.sqlite';
const BUSY_TIMEOUT_MS = 5_000;

export interface OpenDatabaseOptions {
  /** DATA_DIR: created when missing. */
  dataDir: string;
  /** The schema steps; the relay's own by default (tests pass others). */
  migrations?: readonly Migration[];
}

/** Opens (creating and migrating) the store; throws an Error with one clear sentence when it cannot. */
export function openDatabase(options: OpenDatabaseOptions): DatabaseSync {
  const dir = resolve(options.dataDir);
  try {
    privateDir(dir);
    accessSync(dir, constants.W_OK);
  } catch (err) {
    throw new Error(`DATA_DIR: cannot create or write the directory ${dir} (${(err as NodeJS.ErrnoException).code ?? String(err)}); set DATA_DIR to a writable directory`);
  }
  const path = join(dir, DATABASE_FILE);
  let db: DatabaseSync;
  try {
    privateFile(path, { create: true });
    db = new DatabaseSync(path, { timeout: BUSY_TIMEOUT_MS, enableForeignKeyConstraints: true });
  } catch (err) {
    throw new Error(`DATA_DIR: cannot open ${path}: ${(err as Error).message}`);
  }
  try {
    const mode = db.prepare('PRAGMA journal_mode = WAL').get() as { journal_mode: string };
    if (mode.journal_mode !== 'wal') throw new Error(`DATA_DIR: ${path} cannot use write-ahead logging (journal mode ${mode.journal_mode}); put DATA_DIR on a local file system`);
    db.exec('PRAGMA synchronous = NORMAL');
    // Deleted content is overwritten with zeros: freed cells in their page and pages freed whole
    // (FAST would leave those), so a purged or erased number does not linger in the file and no
    // VACUUM is needed to be rid of it (purge.ts, number-data/). The WAL's older page images go at
    // the next truncating checkpoint (checkpointer.ts).
    db.exec('PRAGMA secure_delete = ON');
    migrate(db, options.migrations ?? defaultMigrations, path);
    // A -wal or -shm an older relay left looser than the file.
    privateDatabaseFiles(dir, DATABASE_FILE);
  } catch (err) {
    db.close();
    throw err;
  }
  return db;
}

/** Runs `fn` in one write transaction (BEGIN IMMEDIATE: the write lock is taken up front). */
export function transaction<T>(db: DatabaseSync, fn: () => T): T {
  db.exec('BEGIN IMMEDIATE');
  try {
    const result = fn();
    db.exec('COMMIT');
    return result;
  } catch (err) {
    if (db.isTransaction) db.exec('ROLLBACK');
    throw err;
  }
}
