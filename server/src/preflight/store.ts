// The embedded store as the relay would open it: DATA_DIR writable, and its file (when there is one)
// readable by this relay's schema. Opened read-only: the pre-flight migrates nothing.
import { accessSync, constants, existsSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { DatabaseSync } from 'node:sqlite';
import { DATABASE_FILE } from '../storage/sqlite/database.ts';
import { schemaVersion } from '../storage/sqlite/migrations.ts';
import { migrations } from '../storage/sqlite/schema.ts';
import { type Check, fail, pass } from './check.ts';

export function checkEmbeddedStore(dataDir: string): Check {
  const dir = resolve(dataDir);
  const path = join(dir, DATABASE_FILE);
  if (!existsSync(path)) {
    try {
      accessSync(existsSync(dir) ? dir : resolve(dir, '..'), constants.W_OK);
      return pass('store', `DATA_DIR ${dir}: no store yet; the relay creates it at start`);
    } catch {
      return fail('store', `DATA_DIR ${dir} cannot be created or written: set DATA_DIR to a writable directory`);
    }
  }
  try {
    accessSync(dir, constants.W_OK);
    const db = new DatabaseSync(path, { readOnly: true });
    try {
      const version = schemaVersion(db);
      if (version > migrations.length) return fail('store', `${path} has schema version ${version}, newer than this relay knows (${migrations.length}): run the newer relay`);
      return pass('store', `${path}: schema version ${version}${version < migrations.length ? `, migrated to ${migrations.length} at start` : ''}`);
    } finally {
      db.close();
    }
  } catch (err) {
    return fail('store', `${path} cannot be opened: ${(err as Error).message}`);
  }
}
