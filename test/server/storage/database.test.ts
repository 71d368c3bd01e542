// Opening the embedded store: WAL and the chosen pragmas, versioned migrations in transactions, and
// one clear sentence when the file is newer than the code or DATA_DIR cannot be used.
import { describe, expect, it } from 'vitest';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { DatabaseSync } from 'node:sqlite';
import { DATABASE_FILE, openDatabase } from '../../../server/src/storage/sqlite/database.ts';
import { schemaVersion, type Migration } from '../../../server/src/storage/sqlite/migrations.ts';
import { migrations } from '../../../server/src/storage/sqlite/schema.ts';
import { tempDataDir } from '../../support/crash.ts';

const pragma = (db: DatabaseSync, name: string) => Object.values(db.prepare(`PRAGMA ${name}`).get()!)[0];

describe('the embedded database', () => {
  it('creates DATA_DIR and the file, in WAL mode with synchronous=NORMAL, a busy timeout and foreign keys', () => {
    const dir = join(tempDataDir(), 'nested', 'data');
    const db = openDatabase({ dataDir: dir });
    expect(pragma(db, 'journal_mode')).toBe('wal');
    expect(pragma(db, 'synchronous')).toBe(1);
    expect(pragma(db, 'busy_timeout')).toBe(5000);
    expect(pragma(db, 'foreign_keys')).toBe(1);
    expect(pragma(db, 'secure_delete')).toBe(1);
    expect(schemaVersion(db)).toBe(migrations.length);
    db.close();
    // Reopening applies nothing again and keeps the data.
    const again = openDatabase({ dataDir: dir });
    expect(schemaVersion(again)).toBe(migrations.length);
    again.close();
  });

  it('applies only the missing steps, each with its version', () => {
    const dir = tempDataDir();
    const steps: Migration[] = [{ version: 1, name: 'one', sql: 'CREATE TABLE a (x INTEGER) STRICT;' }];
    openDatabase({ dataDir: dir, migrations: steps }).close();
    const more = [...steps, { version: 2, name: 'two', sql: 'CREATE TABLE b (y INTEGER) STRICT;' }];
    const db = openDatabase({ dataDir: dir, migrations: more });
    expect(schemaVersion(db)).toBe(2);
    expect(
      db
        .prepare("SELECT name FROM sqlite_master WHERE type = 'table' ORDER BY name")
        .all()
        .map((r) => r.name),
    ).toEqual(['a', 'b']);
    db.close();
  });

  it('rolls a failing step back whole, leaving the previous version', () => {
    const dir = tempDataDir();
    const steps: Migration[] = [
      { version: 1, name: 'one', sql: 'CREATE TABLE a (x INTEGER) STRICT;' },
      { version: 2, name: 'broken', sql: 'CREATE TABLE b (y INTEGER) STRICT; INSERT INTO nowhere VALUES (1);' },
    ];
    expect(() => openDatabase({ dataDir: dir, migrations: steps })).toThrow(/migrating .* to version 2 \(broken\) failed: no such table: nowhere/);
    const db = new DatabaseSync(join(dir, DATABASE_FILE));
    expect(schemaVersion(db)).toBe(1);
    expect(db.prepare("SELECT name FROM sqlite_master WHERE name = 'b'").get()).toBeUndefined();
    db.close();
  });

  it('refuses a file written by a newer relay, in one sentence naming both versions', () => {
    const dir = tempDataDir();
    openDatabase({ dataDir: dir }).close();
    const raw = new DatabaseSync(join(dir, DATABASE_FILE));
    raw.exec(`PRAGMA user_version = ${migrations.length + 1}`);
    raw.close();
    expect(() => openDatabase({ dataDir: dir })).toThrow(
      new Error(
        `DATA_DIR: ${join(dir, DATABASE_FILE)} has schema version ${migrations.length + 1}, newer than this relay knows (${migrations.length}); run the newer relay that wrote it, or point DATA_DIR elsewhere`,
      ),
    );
  });

  it('says so when DATA_DIR cannot be created', () => {
    const file = join(tempDataDir(), 'a-file');
    writeFileSync(file, 'not a directory');
    expect(() => openDatabase({ dataDir: join(file, 'data') })).toThrow(
      /^DATA_DIR: cannot create or write the directory .*a-file\/data \(ENOTDIR\); set DATA_DIR to a writable directory$/,
    );
  });
});
