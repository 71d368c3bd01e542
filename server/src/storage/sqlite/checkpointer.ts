// WAL checkpoints off the event loop. A checkpoint copies the WAL back into the database file and
// fsyncs both (synchronous=NORMAL syncs at checkpoints, not at commits): tens to hundreds of
// milliseconds on a busy disk. SQLite runs one automatically inside the commit that crosses 1,000
// WAL pages, so every few hundred accepted requests one of them (and the whole event loop) would
// wait for it. Instead a worker thread with its own connection checkpoints twice a second (PASSIVE:
// it never blocks a writer), and the relay's connection stops checkpointing by itself. Should the
// worker stop, the relay's connection checkpoints automatically again.
import { Worker } from 'node:worker_threads';
import type { DatabaseSync } from 'node:sqlite';

const AUTO_CHECKPOINT_PAGES = 1000;

const source = `
const { parentPort, workerData } = require('node:worker_threads');
const { DatabaseSync } = require('node:sqlite');
const db = new DatabaseSync(workerData.path, { timeout: 1000 });
const checkpoint = db.prepare('PRAGMA wal_checkpoint(PASSIVE)');
const truncate = db.prepare('PRAGMA wal_checkpoint(TRUNCATE)');
const timer = setInterval(() => { try { checkpoint.get(); } catch {} }, workerData.intervalMs);
parentPort.on('message', (m) => {
  if (m && m.truncate !== undefined) {
    let done = false;
    try { done = truncate.get().busy === 0; } catch {}
    parentPort.postMessage({ truncated: m.truncate, done });
    return;
  }
  if (m !== 'stop') return;
  clearInterval(timer);
  try { db.prepare('PRAGMA wal_checkpoint(PASSIVE)').get(); } catch {}
  db.close();
  parentPort.close();
});
`;

export interface Checkpointer {
  /**
   * Checkpoints the whole WAL and truncates it to nothing, in the worker: the older page images it
   * holds (of rows since deleted or overwritten) leave the disk, and the relay's event loop never
   * waits for the copy or the fsyncs. True when done; false when readers or a writer kept it busy for
   * longer than the worker waits (the next truncate, or the purge's, does it), or the worker is gone.
   */
  truncate(): Promise<boolean>;
  stop(): Promise<void>;
}

/** Starts checkpointing `path` (the file `db` has open) in a worker thread. */
export function startCheckpointer(db: DatabaseSync, path: string, intervalMs = 500): Checkpointer {
  // The WAL is reused from its start after each complete checkpoint; this trims a file that a burst
  // grew back to at most 32 MiB.
  db.exec(`PRAGMA journal_size_limit = ${32 * 1024 * 1024}`);
  const worker = new Worker(source, { eval: true, workerData: { path, intervalMs } });
  worker.unref();
  db.exec('PRAGMA wal_autocheckpoint = 0');
  let stopped = false;
  let gone = false;
  const exited = new Promise<void>((resolve) => {
    worker.once('exit', () => {
      gone = true;
      if (!stopped && db.isOpen) db.exec(`PRAGMA wal_autocheckpoint = ${AUTO_CHECKPOINT_PAGES}`);
      resolve();
    });
  });
  worker.on('error', () => {});
  let asked = 0;
  const waiting = new Map<number, (done: boolean) => void>();
  worker.on('message', (m: { truncated: number; done: boolean }) => {
    waiting.get(m.truncated)?.(m.done);
    waiting.delete(m.truncated);
    // Kept alive only while an answer is awaited (a command that erased a number and exits).
    if (waiting.size === 0 && !stopped) worker.unref();
  });
  void exited.then(() => {
    for (const answer of waiting.values()) answer(false);
    waiting.clear();
  });
  return {
    truncate() {
      if (stopped || gone) return Promise.resolve(false);
      const id = ++asked;
      return new Promise<boolean>((resolve) => {
        waiting.set(id, resolve);
        worker.ref();
        worker.postMessage({ truncate: id });
      });
    },
    async stop() {
      if (stopped) return exited;
      stopped = true;
      worker.ref();
      if (db.isOpen) db.exec(`PRAGMA wal_autocheckpoint = ${AUTO_CHECKPOINT_PAGES}`);
      worker.postMessage('stop');
      await exited;
    },
  };
}
