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
const timer = setInterval(() => { try { checkpoint.get(); } catch {} }, workerData.intervalMs);
parentPort.on('message', (m) => {
  if (m !== 'stop') return;
  clearInterval(timer);
  try { db.prepare('PRAGMA wal_checkpoint(PASSIVE)').get(); } catch {}
  db.close();
  parentPort.close();
});
`;

export interface Checkpointer {
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
  const exited = new Promise<void>((resolve) => {
    worker.once('exit', () => {
      if (!stopped && db.isOpen) db.exec(`PRAGMA wal_autocheckpoint = ${AUTO_CHECKPOINT_PAGES}`);
      resolve();
    });
  });
  worker.on('error', () => {});
  return {
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
