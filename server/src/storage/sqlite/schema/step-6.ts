// Schema step 6: the lead report (facts, dialog opens), the owner never-call list and call-back numbers, owner call-backs. Released: never edit it, add the next step.
import type { Migration } from '../migrations.ts';

export const step6: Migration = {
  version: 6,
  name: 'the lead report (facts, dialog opens), the owner never-call list and call-back numbers, owner call-backs',
  // Nothing here holds a number: the report's facts carry attribution and outcomes only ('' for a
  // value the visitor's page did not have, so the open counters' key has no NULLs), and the
  // never-call list keeps each number as its keyed hash (HMAC with HASH_SECRET).
  sql: `
    CREATE TABLE lead_facts (
      callback_id TEXT PRIMARY KEY,
      at_ms INTEGER NOT NULL,
      requested_as TEXT NOT NULL,
      source TEXT NOT NULL,
      medium TEXT NOT NULL,
      campaign TEXT NOT NULL,
      department TEXT NOT NULL,
      page TEXT NOT NULL,
      placed INTEGER NOT NULL DEFAULT 0,
      outcome TEXT,
      answer_seconds REAL,
      talk_seconds INTEGER
    ) STRICT;
    CREATE INDEX lead_facts_by_time ON lead_facts (at_ms);

    CREATE TABLE dialog_opens (
      day TEXT NOT NULL,
      source TEXT NOT NULL,
      medium TEXT NOT NULL,
      campaign TEXT NOT NULL,
      department TEXT NOT NULL,
      page TEXT NOT NULL,
      count INTEGER NOT NULL,
      PRIMARY KEY (day, source, medium, campaign, department, page)
    ) STRICT, WITHOUT ROWID;

    CREATE TABLE never_call (number_hash TEXT PRIMARY KEY, at_ms INTEGER NOT NULL) STRICT;

    -- A missed or failed lead's number, for the owner's "call back now", until until_ms.
    CREATE TABLE callback_numbers (
      callback_id TEXT PRIMARY KEY,
      number_hash TEXT NOT NULL,
      e164 TEXT NOT NULL,
      until_ms INTEGER NOT NULL
    ) STRICT;
    CREATE INDEX callback_numbers_by_number ON callback_numbers (number_hash);

    -- A job may now come from the owner's "call back now" (requested_as 'owner'): SQLite cannot
    -- change a CHECK in place, so the table is rebuilt with the same columns in the same order.
    CREATE TABLE callback_jobs_v6 (
      callback_id TEXT PRIMARY KEY,
      requested_as TEXT NOT NULL CHECK (requested_as IN ('now', 'scheduled', 'queued', 'owner')),
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
      updated_ms INTEGER NOT NULL,
      department TEXT
    ) STRICT;
    INSERT INTO callback_jobs_v6 SELECT * FROM callback_jobs;
    DROP TABLE callback_jobs;
    ALTER TABLE callback_jobs_v6 RENAME TO callback_jobs;
    CREATE INDEX callback_jobs_due ON callback_jobs (due_ms) WHERE state = 'pending';
    CREATE UNIQUE INDEX callback_jobs_one_scheduled_per_number ON callback_jobs (number_hash) WHERE stage = 'scheduled';
    CREATE INDEX callback_jobs_by_age ON callback_jobs (updated_ms) WHERE state <> 'pending';
    CREATE INDEX callback_jobs_by_number ON callback_jobs (number_hash);
  `,
};
