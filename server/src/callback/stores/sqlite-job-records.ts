// Callback jobs read from and written to the SQLite file whole (job-records.ts), for `npm run store
// -- move`. Written as the store's own steps keep them: the number kept in its own column, the one
// pending booking per number held by the table's unique index (a second one is refused, not forced).
import type { DatabaseSync } from 'node:sqlite';
import { pages, type RecordSet, type RecordsWritten } from '../../storage/record-set.ts';
import { transaction } from '../../storage/sqlite/database.ts';
import { jobKept, type MovedJob } from './job-records.ts';
import { toJob } from './sqlite-job-store.ts';

const COLUMNS = [
  'callback_id',
  'requested_as',
  'stage',
  'state',
  'due_ms',
  'number_hash',
  'masked_number',
  'e164',
  'department',
  'request',
  'cancel_hash',
  'attempts',
  'lease_owner',
  'lease_expires_ms',
  'interrupted',
  'outcome',
  'scheduled_for_ms',
  'queued_at_ms',
  'unreachable_tries',
  'last_attempt_ms',
  'retried_unknown',
  'redials',
  'due_since_ms',
  'created_ms',
  'updated_ms',
] as const;

function rowOf(job: MovedJob): Array<string | number | null> {
  const { e164, department, ...request } = job.request;
  const p = job.progress;
  return [
    job.callbackId,
    job.requestedAs,
    job.stage,
    job.state,
    job.dueAt,
    job.numberHash,
    job.maskedNumber,
    e164,
    department ?? null,
    JSON.stringify(request),
    job.cancelHash,
    job.attempts,
    job.leaseOwner,
    job.leaseExpiresAt,
    job.interrupted ? 1 : 0,
    job.outcome,
    p.scheduledFor,
    p.queuedAt,
    p.unreachableTries,
    p.lastAttemptAt,
    p.retriedUnknown ? 1 : 0,
    p.redials,
    p.dueSince,
    job.createdAt,
    job.updatedAt,
  ];
}

export function sqliteJobRecords(db: DatabaseSync, options: { retentionDays: number }): RecordSet<MovedJob> {
  const sql = {
    page: db.prepare('SELECT * FROM callback_jobs WHERE callback_id > ? ORDER BY callback_id LIMIT ?'),
    count: db.prepare('SELECT COUNT(*) AS n FROM callback_jobs'),
    exists: db.prepare('SELECT 1 FROM callback_jobs WHERE callback_id = ?'),
    booking: db.prepare("SELECT callback_id FROM callback_jobs WHERE number_hash = ? AND stage = 'scheduled' AND callback_id <> ?"),
    remove: db.prepare('DELETE FROM callback_jobs WHERE callback_id = ?'),
    insert: db.prepare(`INSERT INTO callback_jobs (${COLUMNS.join(', ')}) VALUES (${COLUMNS.map(() => '?').join(', ')})`),
  };
  return {
    async count() {
      return (sql.count.get() as { n: number }).n;
    },
    async *read(nowMs) {
      type Row = Parameters<typeof toJob>[0];
      for await (const rows of pages<Row>((after, size) => sql.page.all(after?.callback_id ?? '', size) as unknown as Row[])) {
        yield rows.map((row): MovedJob => ({ ...toJob(row), cancelHash: row.cancel_hash })).filter((job) => jobKept(job, options.retentionDays, nowMs));
      }
    },
    async write(jobs) {
      return transaction(db, () => {
        const written: RecordsWritten = { added: 0, replaced: 0, refused: [] };
        for (const job of jobs) {
          const holder = job.stage === 'scheduled' ? (sql.booking.get(job.numberHash, job.callbackId) as { callback_id: string } | undefined) : undefined;
          if (holder) {
            written.refused.push(`${job.callbackId}: the target holds another booking for its number (${holder.callback_id})`);
            continue;
          }
          const existed = sql.exists.get(job.callbackId) !== undefined;
          if (existed) sql.remove.run(job.callbackId);
          sql.insert.run(...rowOf(job));
          if (existed) written.replaced++;
          else written.added++;
        }
        return written;
      });
    },
  };
}
