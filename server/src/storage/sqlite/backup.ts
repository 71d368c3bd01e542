// A backup of the embedded store while the relay runs (SQLite's online backup: the database as of one
// commit, checked and renamed into place, so a backup that exists is a whole one), and its restore
// while no relay has the store open (the store it replaces is kept beside it). What a restore refuses
// and what the restored store holds: storage/README.md.
import { chmodSync, copyFileSync, existsSync, renameSync, rmSync, statSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { backup, DatabaseSync } from 'node:sqlite';
import { DATABASE_FILE, openDatabase } from './database.ts';
import { schemaVersion } from './migrations.ts';
import { migrations } from './schema.ts';

/** One step copies every page: the copy is one read transaction's snapshot, never a mix. */
const ALL_PAGES = 2 ** 31 - 1;
const LOCK_WAIT_MS = 1_000;
/** A table every version of the store has had: a file without it is not a Dialback store. */
const MARK_TABLE = 'meta';

export interface StoreFileSummary {
  file: string;
  bytes: number;
  schemaVersion: number;
  /** Rows per table. */
  rows: Record<string, number>;
}

function storePath(dataDir: string): string {
  return join(resolve(dataDir), DATABASE_FILE);
}

function summarize(db: DatabaseSync, file: string): StoreFileSummary {
  const tables = db.prepare("SELECT name FROM sqlite_schema WHERE type = 'table' AND name NOT LIKE 'sqlite_%' ORDER BY name").all() as Array<{ name: string }>;
  const rows: Record<string, number> = {};
  for (const { name } of tables) rows[name] = (db.prepare(`SELECT count(*) AS n FROM "${name.replaceAll('"', '""')}"`).get() as { n: number }).n;
  return { file, bytes: statSync(file).size, schemaVersion: schemaVersion(db), rows };
}

/** Throws unless `db` is a whole Dialback store this relay can read. */
function checkStoreFile(db: DatabaseSync, file: string): void {
  const check = db.prepare('PRAGMA integrity_check').all() as Array<{ integrity_check: string }>;
  if (check.length !== 1 || check[0]!.integrity_check !== 'ok') {
    throw new Error(
      `${file} fails SQLite's integrity check (${check
        .map((c) => c.integrity_check)
        .join('; ')
        .slice(0, 200)})`,
    );
  }
  if (!db.prepare("SELECT 1 FROM sqlite_schema WHERE type = 'table' AND name = ?").get(MARK_TABLE))
    throw new Error(`${file} is not a Dialback store (it has no "${MARK_TABLE}" table)`);
  const version = schemaVersion(db);
  if (version > migrations.length) {
    throw new Error(`${file} has schema version ${version}, newer than this relay knows (${migrations.length}); restore it with the relay version that wrote it`);
  }
}

/** `onCopy` runs as the copy starts (the command logs it; a test kills the relay there). */
export async function backupStore(dataDir: string, file: string, onCopy: () => void = () => {}): Promise<StoreFileSummary> {
  const source = storePath(dataDir);
  if (!existsSync(source)) throw new Error(`DATA_DIR: there is no store to back up at ${source}`);
  const target = resolve(file);
  if (target === source) throw new Error('the backup file must not be the store itself');
  const partial = join(dirname(target), `.${DATABASE_FILE}.backup-${process.pid}`);
  const db = new DatabaseSync(source, { timeout: 5_000 });
  try {
    onCopy();
    await backup(db, partial, { rate: ALL_PAGES });
  } catch (err) {
    rmSync(partial, { force: true });
    throw new Error(`the backup of ${source} failed: ${(err as Error).message}`);
  } finally {
    db.close();
  }
  let summary: StoreFileSummary;
  const copy = new DatabaseSync(partial);
  try {
    copy.exec('PRAGMA journal_mode = DELETE');
    checkStoreFile(copy, target);
    summary = summarize(copy, partial);
  } catch (err) {
    copy.close();
    rmSync(partial, { force: true });
    throw err;
  }
  copy.close();
  chmodSync(partial, 0o600);
  renameSync(partial, target);
  return { ...summary, file: target };
}

export interface RestoreResult extends StoreFileSummary {
  /** Where the store it replaced was kept, or null when DATA_DIR had none. */
  previous: string | null;
  /** The schema versions the restored file was migrated through. */
  migratedFrom: number;
}

/** Throws unless no other process has the store at `path` open. */
export function assertNotInUse(path: string): void {
  if (!existsSync(path)) return;
  const db = new DatabaseSync(path, { timeout: LOCK_WAIT_MS });
  try {
    db.exec('PRAGMA locking_mode = EXCLUSIVE');
    db.exec('BEGIN EXCLUSIVE');
    db.exec('COMMIT');
    // Everything in the -wal goes into the file kept aside, so the file alone is that store.
    db.exec('PRAGMA wal_checkpoint(TRUNCATE)');
  } catch (err) {
    throw new Error(`${path} is open in another process (${(err as Error).message}): stop every relay on this DATA_DIR before a restore`);
  } finally {
    db.close();
  }
}

export function restoreStore(dataDir: string, file: string, now: Date = new Date()): RestoreResult {
  const source = resolve(file);
  if (!existsSync(source)) throw new Error(`there is no backup file at ${source}`);
  const probe = new DatabaseSync(source, { readOnly: true });
  let from: number;
  try {
    checkStoreFile(probe, source);
    from = schemaVersion(probe);
  } finally {
    probe.close();
  }
  const live = storePath(dataDir);
  assertNotInUse(live);
  const incoming = `${live}.restoring`;
  copyFileSync(source, incoming);
  chmodSync(incoming, 0o600);
  let previous: string | null = null;
  if (existsSync(live)) {
    previous = `${live}.before-restore-${now.toISOString().replaceAll(':', '-')}`;
    renameSync(live, previous);
  }
  for (const leftover of ['-wal', '-shm', '-journal']) rmSync(live + leftover, { force: true });
  renameSync(incoming, live);
  const db = openDatabase({ dataDir });
  try {
    return { ...summarize(db, live), previous, migratedFrom: from };
  } finally {
    db.close();
  }
}
