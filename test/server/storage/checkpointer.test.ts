// Checkpoints in a worker thread: while it runs the relay's connection never checkpoints by itself;
// stopping it checkpoints what is left and gives automatic checkpoints back.
import { describe, expect, it } from 'vitest';
import { join } from 'node:path';
import { DATABASE_FILE, openDatabase } from '../../../server/src/storage/sqlite/database.ts';
import { startCheckpointer } from '../../../server/src/storage/sqlite/checkpointer.ts';
import { tempDataDir } from '../../support/crash.ts';

const pragma = (db: ReturnType<typeof openDatabase>, name: string) => Object.values(db.prepare(`PRAGMA ${name}`).get()!)[0];

describe('background checkpointer', () => {
  it('takes checkpoints over from the relay connection, and leaves the WAL checkpointed when stopped', async () => {
    const dir = tempDataDir();
    const db = openDatabase({ dataDir: dir });
    expect(pragma(db, 'wal_autocheckpoint')).toBe(1000);
    // A long interval: only the final checkpoint at stop() can have copied these rows.
    const checkpointer = startCheckpointer(db, join(dir, DATABASE_FILE), 3_600_000);
    expect(pragma(db, 'wal_autocheckpoint')).toBe(0);
    const insert = db.prepare("INSERT INTO meta (key, value) VALUES (?, 'x')");
    for (let i = 0; i < 200; i++) insert.run(`k${i}`);
    const before = db.prepare('PRAGMA wal_checkpoint(NOOP)').get() as { log: number; checkpointed: number };
    expect(before.log).toBeGreaterThan(before.checkpointed);
    await checkpointer.stop();
    expect(pragma(db, 'wal_autocheckpoint')).toBe(1000);
    const after = db.prepare('PRAGMA wal_checkpoint(NOOP)').get() as { log: number; checkpointed: number };
    expect(after.checkpointed).toBe(after.log);
    db.close();
  });
});
