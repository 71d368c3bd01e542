// Privacy at rest in the embedded store (docs/data-at-rest.md): a full number is kept only while a
// call may still be placed or a webhook still delivered; the rest of a record is deleted
// DATA_RETENTION_DAYS after it was finished. Deleted content is overwritten (secure_delete) and the WAL
// truncated after a purge that changed anything, off the event loop when a checkpointer runs. The
// details: storage/README.md.
import type { DatabaseSync } from 'node:sqlite';
import { transaction } from './database.ts';

const DAY_MS = 86_400_000;

export interface PurgeCounts {
  /**
   * Finished jobs whose number (and address, user agent) was emptied since the last run: by the
   * step that finished them (callback/stages.ts forgetsNumber), or here for a row a relay before
   * that finished. Either way their older page images are then truncated from the WAL.
   */
  jobNumbers: number;
  /** Finished outbox entries whose body was emptied. */
  webhookBodies: number;
  /** Records deleted for age (jobs, outbox entries, consent records). */
  deleted: number;
}

export interface Purge {
  run(nowMs: number): PurgeCounts;
  /** Runs every `intervalMs` (and once now) until stop(). */
  start(intervalMs: number): void;
  stop(): void;
}

export function createPurge(options: { db: DatabaseSync; retentionDays: number; now?: () => number; truncateWal?: () => Promise<boolean> }): Purge {
  const { db } = options;
  const now = options.now ?? Date.now;
  const retentionMs = options.retentionDays * DAY_MS;
  const sql = {
    jobNumbers: db.prepare(
      "UPDATE callback_jobs SET e164 = NULL, request = json_set(request, '$.clientIp', NULL, '$.userAgent', NULL) WHERE state <> 'pending' AND e164 IS NOT NULL",
    ),
    finishedSince: db.prepare("SELECT COUNT(*) AS n, MAX(updated_ms) AS last FROM callback_jobs WHERE state <> 'pending' AND updated_ms > ?"),
    webhookBodies: db.prepare("UPDATE webhook_outbox SET body = NULL WHERE state <> 'pending' AND body IS NOT NULL"),
    oldJobs: db.prepare("DELETE FROM callback_jobs WHERE state <> 'pending' AND updated_ms < ?"),
    oldEvents: db.prepare("DELETE FROM webhook_outbox WHERE state <> 'pending' AND finished_ms < ?"),
    oldConsent: db.prepare('DELETE FROM consent WHERE at_ms < ?'),
  };
  let timer: NodeJS.Timeout | null = null;
  /** The latest finish counted: jobs finished after it forgot their number since the last run. */
  let finishedUpTo = 0;

  function finishedJobs(): number {
    const { n, last } = sql.finishedSince.get(finishedUpTo) as { n: number; last: number | null };
    finishedUpTo = last ?? finishedUpTo;
    return n;
  }

  function run(nowMs: number): PurgeCounts {
    const cutoff = nowMs - retentionMs;
    const counts = transaction(db, () => ({
      jobNumbers: Math.max(finishedJobs(), Number(sql.jobNumbers.run().changes)),
      webhookBodies: Number(sql.webhookBodies.run().changes),
      deleted: [sql.oldJobs.run(cutoff), sql.oldEvents.run(cutoff), sql.oldConsent.run(cutoff)].reduce((n, r) => n + Number(r.changes), 0),
    }));
    if (counts.jobNumbers + counts.webhookBodies + counts.deleted > 0) {
      if (options.truncateWal) void options.truncateWal();
      else db.exec('PRAGMA wal_checkpoint(TRUNCATE)');
    }
    return counts;
  }

  return {
    run,
    start(intervalMs) {
      if (timer) return;
      run(now());
      timer = setInterval(() => run(now()), intervalMs);
      timer.unref();
    },
    stop() {
      if (timer) clearInterval(timer);
      timer = null;
    },
  };
}
