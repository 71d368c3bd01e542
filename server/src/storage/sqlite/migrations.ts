// Versioned schema changes, counted in the file's own header (PRAGMA user_version). Each step runs
// in its own transaction with the version bump, so a crash mid-migration leaves the previous
// version intact. A file written by a newer relay (a version this code does not know) is refused:
// an older relay must not guess at tables it has never seen.
import type { DatabaseSync } from 'node:sqlite';

export interface Migration {
  /** 1, 2, 3…: each step's version, in order without gaps. */
  version: number;
  /** What it changes, for the reader. */
  name: string;
  sql: string;
}

export function schemaVersion(db: DatabaseSync): number {
  return (db.prepare('PRAGMA user_version').get() as { user_version: number }).user_version;
}

/** Brings `db` to the newest version in `steps`; returns the versions applied. */
export function migrate(db: DatabaseSync, steps: readonly Migration[], path: string): number[] {
  steps.forEach((step, i) => {
    if (step.version !== i + 1) throw new Error(`migration "${step.name}" has version ${step.version}, expected ${i + 1}`);
  });
  const known = steps.length;
  const current = schemaVersion(db);
  if (current > known) {
    throw new Error(`DATA_DIR: ${path} has schema version ${current}, newer than this relay knows (${known}); run the newer relay that wrote it, or point DATA_DIR elsewhere`);
  }
  const applied: number[] = [];
  for (const step of steps.slice(current)) {
    db.exec('BEGIN IMMEDIATE');
    try {
      db.exec(step.sql);
      db.exec(`PRAGMA user_version = ${step.version}`);
      db.exec('COMMIT');
    } catch (err) {
      db.exec('ROLLBACK');
      throw new Error(`DATA_DIR: migrating ${path} to version ${step.version} (${step.name}) failed: ${(err as Error).message}`);
    }
    applied.push(step.version);
  }
  return applied;
}
