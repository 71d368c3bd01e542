// NumberRecords in the SQLite file. Erasure deletes the rows; secure_delete=ON (database.ts)
// overwrites them in the file as they go, so no VACUUM (seconds of a whole-file rewrite on the
// request path) is needed. The WAL's older page images are the last copies: `scrub` checkpoints it
// and truncates it to nothing, in the checkpointer's worker thread, so the number's digits are
// nowhere in DATA_DIR afterwards.
import type { DatabaseSync } from 'node:sqlite';
import type { ConsentRecord } from '../consent/consent-log.ts';
import { toRecord } from '../consent/sqlite-consent-log.ts';
import type { CallbackJob } from '../callback/job-store.ts';
import { toJob } from '../callback/stores/sqlite-job-store.ts';
import { transaction } from '../storage/sqlite/database.ts';
import type { OutboxEntry } from '../webhooks/outbox.ts';
import { toEntry } from '../webhooks/sqlite-outbox.ts';
import type { NumberRecords } from './number-records.ts';

/** `truncateWal`: the checkpointer's (checkpointer.ts); without one the relay's connection does it. */
export function createSqliteNumberRecords(db: DatabaseSync, truncateWal?: () => Promise<boolean>): NumberRecords {
  const sql = {
    jobs: db.prepare('SELECT * FROM callback_jobs WHERE number_hash = ? ORDER BY created_ms'),
    consent: db.prepare('SELECT * FROM consent WHERE number_hmac = ? ORDER BY at_ms'),
    outbox: db.prepare('SELECT * FROM webhook_outbox WHERE number_hash = ? ORDER BY created_ms'),
    eraseJobs: db.prepare('DELETE FROM callback_jobs WHERE number_hash = ?'),
    eraseConsent: db.prepare('DELETE FROM consent WHERE number_hmac = ?'),
    eraseOutbox: db.prepare('DELETE FROM webhook_outbox WHERE number_hash = ?'),
  };
  return {
    async find(hash) {
      return {
        jobs: sql.jobs.all(hash).map((r) => toJob(r as never) as CallbackJob),
        consent: sql.consent.all(hash).map((r) => toRecord(r as never) as ConsentRecord),
        outbox: sql.outbox.all(hash).map((r) => toEntry(r as never) as OutboxEntry),
      };
    },
    async erase(hash) {
      const erased = transaction(db, () => ({
        jobs: Number(sql.eraseJobs.run(hash).changes),
        consent: Number(sql.eraseConsent.run(hash).changes),
        outbox: Number(sql.eraseOutbox.run(hash).changes),
      }));
      return erased;
    },
    async scrub() {
      if (truncateWal && (await truncateWal())) return;
      db.exec('PRAGMA wal_checkpoint(TRUNCATE)');
    },
  };
}
