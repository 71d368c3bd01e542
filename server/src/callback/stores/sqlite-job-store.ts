// CallbackJobStore in the SQLite file. Each step is one statement or one transaction that commits
// before it returns, so an accepted job survives kill -9, and a claim is exclusive: the UPDATE that
// leases a job only matches it while no unexpired lease holds it. The number is kept in its own
// column (e164), so the write that ends a job can empty it (stages.ts forgetsNumber) without
// touching the rest of the request; the department too (DEPARTMENTS_FILE), so a query can pick a
// department's calls.
import type { DatabaseSync } from 'node:sqlite';
import { cancelVerdict, hashCancelToken, type CallbackJob, type CallbackJobStore, type JobProgress } from '../job-store.ts';
import { forgetsNumber, stateOf, type JobState, type RequestedAs, type Stage } from '../stages.ts';
import { transaction } from '../../storage/sqlite/database.ts';

interface Row {
  callback_id: string;
  requested_as: RequestedAs;
  stage: Stage;
  state: JobState;
  due_ms: number;
  number_hash: string;
  masked_number: string;
  e164: string | null;
  department: string | null;
  request: string;
  cancel_hash: string | null;
  attempts: number;
  lease_owner: string | null;
  lease_expires_ms: number | null;
  interrupted: number;
  outcome: string | null;
  scheduled_for_ms: number | null;
  queued_at_ms: number | null;
  unreachable_tries: number;
  last_attempt_ms: number | null;
  retried_unknown: number;
  redials: number;
  due_since_ms: number | null;
  created_ms: number;
  updated_ms: number;
}

export function toJob(row: Row): CallbackJob {
  return {
    callbackId: row.callback_id,
    requestedAs: row.requested_as,
    stage: row.stage,
    state: row.state,
    dueAt: row.due_ms,
    request: { ...JSON.parse(row.request), e164: row.e164, ...(row.department !== null && { department: row.department }) },
    numberHash: row.number_hash,
    maskedNumber: row.masked_number,
    cancellable: row.cancel_hash !== null,
    attempts: row.attempts,
    leaseOwner: row.lease_owner,
    leaseExpiresAt: row.lease_expires_ms,
    interrupted: row.interrupted === 1,
    outcome: row.outcome,
    progress: {
      scheduledFor: row.scheduled_for_ms,
      queuedAt: row.queued_at_ms,
      unreachableTries: row.unreachable_tries,
      lastAttemptAt: row.last_attempt_ms,
      retriedUnknown: row.retried_unknown === 1,
      redials: row.redials,
      dueSince: row.due_since_ms,
    },
    createdAt: row.created_ms,
    updatedAt: row.updated_ms,
  };
}

/** The progress columns' values, in the order the statements name them. */
const progressValues = (p: JobProgress) => [p.scheduledFor, p.queuedAt, p.unreachableTries, p.lastAttemptAt, p.retriedUnknown ? 1 : 0, p.redials, p.dueSince] as const;
const PROGRESS_COLUMNS = 'scheduled_for_ms, queued_at_ms, unreachable_tries, last_attempt_ms, retried_unknown, redials, due_since_ms';

/** Empties the number, address and user agent when the first parameter is 1 (stages.ts forgetsNumber: the step ends the job). */
const FORGET = "e164 = CASE WHEN ?1 THEN NULL ELSE e164 END, request = CASE WHEN ?1 THEN json_set(request, '$.clientIp', NULL, '$.userAgent', NULL) ELSE request END";

const isUnique = (err: unknown, column: string) => err instanceof Error && err.message.includes(`UNIQUE constraint failed: callback_jobs.${column}`);

export function createSqliteCallbackJobStore(options: { db: DatabaseSync }): CallbackJobStore {
  const { db } = options;
  const sql = {
    insert:
      db.prepare(`INSERT INTO callback_jobs (callback_id, requested_as, stage, state, outcome, due_ms, number_hash, masked_number, e164, department, request, cancel_hash, ${PROGRESS_COLUMNS}, created_ms, updated_ms)
      VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`),
    claim: db.prepare(`UPDATE callback_jobs
      SET interrupted = (lease_owner IS NOT NULL), lease_owner = ?, lease_expires_ms = ?, attempts = attempts + 1, updated_ms = ?
      WHERE callback_id IN (SELECT callback_id FROM callback_jobs
        WHERE state = 'pending' AND due_ms <= ? AND (lease_owner IS NULL OR lease_expires_ms <= ?) ORDER BY due_ms LIMIT ?)
      RETURNING *`),
    renew: db.prepare("UPDATE callback_jobs SET lease_expires_ms = ? WHERE callback_id = ? AND state = 'pending' AND lease_owner = ? AND lease_expires_ms > ?"),
    finish: db.prepare(
      `UPDATE callback_jobs SET ${FORGET}, stage = ?2, state = ?3, outcome = ?4, lease_owner = NULL, lease_expires_ms = NULL, updated_ms = ?5 WHERE callback_id = ?6 AND state = 'pending' AND lease_owner = ?7 AND stage = ?8`,
    ),
    wait: db.prepare(`UPDATE callback_jobs SET stage = ?, due_ms = ?, scheduled_for_ms = ?, queued_at_ms = ?, unreachable_tries = ?, last_attempt_ms = ?, retried_unknown = ?, redials = ?, due_since_ms = ?,
        lease_owner = NULL, lease_expires_ms = NULL, updated_ms = ?
      WHERE callback_id = ? AND state = 'pending' AND lease_owner = ? AND stage = ?`),
    get: db.prepare('SELECT * FROM callback_jobs WHERE callback_id = ?'),
    cancel: db.prepare(
      `UPDATE callback_jobs SET ${FORGET}, stage = 'cancelled', state = 'cancelled', lease_owner = NULL, lease_expires_ms = NULL, updated_ms = ?2 WHERE callback_id = ?3`,
    ),
    pending: db.prepare("SELECT * FROM callback_jobs WHERE state = 'pending' ORDER BY due_ms LIMIT ?"),
    failed: db.prepare("SELECT * FROM callback_jobs WHERE state = 'failed' AND attempts > 0 AND updated_ms >= ? ORDER BY updated_ms DESC LIMIT ?"),
  };

  return {
    async add(job, nowMs) {
      const { e164, department, ...rest } = job.request;
      const forget = forgetsNumber(job.stage);
      try {
        sql.insert.run(
          job.callbackId,
          job.requestedAs,
          job.stage,
          stateOf(job.stage),
          'outcome' in job ? job.outcome : null,
          job.dueAt,
          job.numberHash,
          job.maskedNumber,
          forget ? null : e164,
          department ?? null,
          JSON.stringify(forget ? { ...rest, clientIp: null, userAgent: null } : rest),
          job.cancelToken === null ? null : hashCancelToken(job.cancelToken),
          ...progressValues(job.progress),
          nowMs,
          nowMs,
        );
      } catch (err) {
        // SQLite may report either index first when both are violated: the id decides.
        if (isUnique(err, 'callback_id') || (isUnique(err, 'number_hash') && sql.get.get(job.callbackId))) return { ok: false, reason: 'duplicate_callback_id' };
        if (isUnique(err, 'number_hash')) return { ok: false, reason: 'number_already_scheduled' };
        throw err;
      }
      return { ok: true };
    },

    async claimDue(owner, nowMs, leaseMs, limit) {
      const rows = sql.claim.all(owner, nowMs + leaseMs, nowMs, nowMs, nowMs, limit) as unknown as Row[];
      return rows.map(toJob).sort((a, b) => a.dueAt - b.dueAt);
    },

    async renew(callbackId, owner, nowMs, leaseMs) {
      return sql.renew.run(nowMs + leaseMs, callbackId, owner, nowMs).changes === 1;
    },

    async advance(callbackId, owner, from, step, nowMs) {
      if (!('dueAt' in step)) return sql.finish.run(forgetsNumber(step.stage) ? 1 : 0, step.stage, stateOf(step.stage), step.outcome, nowMs, callbackId, owner, from).changes === 1;
      try {
        return sql.wait.run(step.stage, step.dueAt, ...progressValues(step.progress), nowMs, callbackId, owner, from).changes === 1;
      } catch (err) {
        // A second pending booking for the number: nothing written.
        if (isUnique(err, 'number_hash')) return false;
        throw err;
      }
    },

    async cancel(callbackId, cancelToken, nowMs) {
      return transaction(db, () => {
        const row = sql.get.get(callbackId) as Row | undefined;
        const verdict = cancelVerdict(
          row && { stage: row.stage, cancelHash: row.cancel_hash, leaseOwner: row.lease_owner, leaseExpiresAt: row.lease_expires_ms },
          cancelToken,
          nowMs,
        );
        if (verdict === 'cancelled') sql.cancel.run(forgetsNumber('cancelled') ? 1 : 0, nowMs, callbackId);
        return verdict;
      });
    },

    async get(callbackId) {
      const row = sql.get.get(callbackId) as Row | undefined;
      return row && toJob(row);
    },

    async listPending(limit) {
      return (sql.pending.all(limit) as unknown as Row[]).map(toJob);
    },

    async listFailed(sinceMs, limit) {
      return (sql.failed.all(sinceMs, limit) as unknown as Row[]).map(toJob);
    },
  };
}
