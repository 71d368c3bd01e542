// Schema step 3: callback jobs: a typed lifecycle stage and progress instead of a kind and a notes string. Released: never edit it, add the next step.
import type { Migration } from '../migrations.ts';

export const step3: Migration = {
  version: 3,
  name: 'callback jobs: a typed lifecycle stage and progress instead of a kind and a notes string',
  // A table rebuild (SQLite cannot change a CHECK constraint in place), in the step's transaction.
  // Each pending job keeps what it was waiting for: a job of kind 'redial' whose notes said the
  // last attempt was placed is following that call ('following'), one whose last attempt is
  // unknown is 'checking', and the rest keep their kind as their stage. How the lead came in
  // (requested_as) is read from the notes: a booked time ('scheduled'), a first hold ('queued'),
  // else a call placed at once ('now'), whose cancel hash was never given to anyone and is dropped.
  sql: `
    CREATE TABLE callback_jobs_v3 (
      callback_id TEXT PRIMARY KEY,
      requested_as TEXT NOT NULL CHECK (requested_as IN ('now', 'scheduled', 'queued')),
      stage TEXT NOT NULL CHECK (stage IN ('scheduled', 'queued', 'checking', 'following', 'redial', 'answered', 'missed', 'ended', 'failed', 'cancelled')),
      state TEXT NOT NULL CHECK (state IN ('pending', 'completed', 'failed', 'cancelled')),
      due_ms INTEGER NOT NULL,
      number_hash TEXT NOT NULL,
      masked_number TEXT NOT NULL,
      e164 TEXT,
      request TEXT NOT NULL,
      cancel_hash TEXT,
      attempts INTEGER NOT NULL DEFAULT 0,
      lease_owner TEXT,
      lease_expires_ms INTEGER,
      interrupted INTEGER NOT NULL DEFAULT 0,
      outcome TEXT,
      scheduled_for_ms INTEGER,
      queued_at_ms INTEGER,
      unreachable_tries INTEGER NOT NULL DEFAULT 0,
      last_attempt_ms INTEGER,
      retried_unknown INTEGER NOT NULL DEFAULT 0,
      redials INTEGER NOT NULL DEFAULT 0,
      due_since_ms INTEGER,
      created_ms INTEGER NOT NULL,
      updated_ms INTEGER NOT NULL
    ) STRICT;

    INSERT INTO callback_jobs_v3
    SELECT
      callback_id,
      CASE
        WHEN kind = 'scheduled' OR json_extract(notes, '$.scheduledFor') IS NOT NULL THEN 'scheduled'
        WHEN kind = 'queued' OR json_extract(notes, '$.queuedAt') IS NOT NULL THEN 'queued'
        ELSE 'now'
      END,
      CASE
        WHEN state = 'failed' THEN 'failed'
        WHEN state = 'cancelled' THEN 'cancelled'
        WHEN state = 'completed' AND outcome = 'answered' THEN 'answered'
        WHEN state = 'completed' AND outcome = 'missed' THEN 'missed'
        WHEN state = 'completed' THEN 'ended'
        WHEN json_extract(notes, '$.last.result') = 'placed' THEN 'following'
        WHEN json_extract(notes, '$.last.result') = 'unknown' THEN 'checking'
        ELSE kind
      END,
      state, due_ms, number_hash, masked_number, e164, request,
      CASE
        WHEN kind = 'scheduled' OR kind = 'queued' OR json_extract(notes, '$.scheduledFor') IS NOT NULL OR json_extract(notes, '$.queuedAt') IS NOT NULL THEN cancel_hash
      END,
      attempts, lease_owner, lease_expires_ms, interrupted, outcome,
      COALESCE(json_extract(notes, '$.scheduledFor'), CASE WHEN kind = 'scheduled' THEN due_ms END),
      COALESCE(json_extract(notes, '$.queuedAt'), CASE WHEN kind = 'queued' THEN created_ms END),
      COALESCE(json_extract(notes, '$.unreachable'), 0),
      json_extract(notes, '$.last.at'),
      COALESCE(json_extract(notes, '$.retriedUnknown'), 0),
      COALESCE(json_extract(notes, '$.redials'), 0),
      json_extract(notes, '$.dueSince'),
      created_ms, updated_ms
    FROM callback_jobs;

    DROP TABLE callback_jobs;
    ALTER TABLE callback_jobs_v3 RENAME TO callback_jobs;
    CREATE INDEX callback_jobs_due ON callback_jobs (due_ms) WHERE state = 'pending';
    CREATE UNIQUE INDEX callback_jobs_one_scheduled_per_number ON callback_jobs (number_hash) WHERE stage = 'scheduled';
    CREATE INDEX callback_jobs_by_age ON callback_jobs (updated_ms) WHERE state <> 'pending';
  `,
};
