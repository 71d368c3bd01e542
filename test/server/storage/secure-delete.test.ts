// What erasure relies on instead of a VACUUM (a whole-file rewrite that held the event loop for
// seconds): the embedded store overwrites what it deletes, pages freed whole included (a long value's
// overflow pages, which secure_delete=FAST leaves as they were), and a truncating checkpoint takes
// the older page images out of the WAL. The file then holds none of the deleted bytes, while its
// freed pages are still there (nothing rewrote it).
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { DatabaseSync } from 'node:sqlite';
import { expect, it } from 'vitest';
import { DATABASE_FILE, openDatabase } from '../../../server/src/storage/sqlite/database.ts';
import { startCheckpointer } from '../../../server/src/storage/sqlite/checkpointer.ts';
import { tempDataDir } from '../../support/crash.ts';

const MARK = 'utm-erase-me-050-123-45-99';
const pragma = (db: DatabaseSync, name: string) => Object.values(db.prepare(`PRAGMA ${name}`).get()!)[0];
const holds = (dir: string, text: string) =>
  ['', '-wal'].some((suffix) => {
    try {
      return readFileSync(join(dir, DATABASE_FILE + suffix)).includes(Buffer.from(text));
    } catch {
      return false;
    }
  });

it('deletes without leaving the bytes in the file or its WAL, pages freed whole included, with no VACUUM', async () => {
  const dir = tempDataDir();
  const db = openDatabase({ dataDir: dir, migrations: [{ version: 1, name: 'values', sql: 'CREATE TABLE kept (v TEXT NOT NULL) STRICT;' }] });
  expect(pragma(db, 'secure_delete')).toBe(1);
  const checkpointer = startCheckpointer(db, join(dir, DATABASE_FILE), 3_600_000);
  // ~27 KB: stored on overflow pages, each freed whole when the row goes.
  db.prepare('INSERT INTO kept (v) VALUES (?)').run(MARK.repeat(1_000));
  for (let i = 0; i < 50; i++) db.prepare('INSERT INTO kept (v) VALUES (?)').run(`${MARK} ${i}`);
  db.prepare('INSERT INTO kept (v) VALUES (?)').run('another visitor');
  expect(await checkpointer.truncate()).toBe(true);
  expect(holds(dir, MARK)).toBe(true);

  db.prepare("DELETE FROM kept WHERE v <> 'another visitor'").run();
  // Before the truncating checkpoint the WAL still holds the older page images.
  expect(holds(dir, MARK)).toBe(true);
  expect(await checkpointer.truncate()).toBe(true);
  expect(holds(dir, MARK)).toBe(false);
  expect(holds(dir, 'another visitor')).toBe(true);
  expect(pragma(db, 'freelist_count')).toBeGreaterThan(0);
  await checkpointer.stop();
  db.close();
});
