// Schema step 1: limits, idempotency, callback jobs, consent, webhook outbox. Released: never edit it, add the next step.
import type { Migration } from '../migrations.ts';

export const step1: Migration = {
  version: 1,
  name: 'limits, idempotency, callback jobs, consent, webhook outbox',
  sql: `
    CREATE TABLE meta (key TEXT PRIMARY KEY, value TEXT NOT NULL) STRICT;

    -- Every accepted request's effect on each limit table, replayed into memory at startup. One
    -- index only, on a column that grows with time, so a commit appends to the last page of the
    -- table and of the index: an index on the (random) keys, or one led by the table name, would
    -- scatter every commit over several pages and cost several times as much.
    CREATE TABLE limit_events (
      id INTEGER PRIMARY KEY,
      tbl TEXT NOT NULL,
      key TEXT NOT NULL,
      member TEXT,
      at_ms INTEGER NOT NULL
    ) STRICT;
    CREATE INDEX limit_events_by_time ON limit_events (at_ms);

    CREATE TABLE limit_in_flight (key TEXT PRIMARY KEY, count INTEGER NOT NULL, expires_ms INTEGER NOT NULL) STRICT;

    CREATE TABLE idempotency (
      id TEXT PRIMARY KEY,
      fingerprint TEXT NOT NULL,
      created_ms INTEGER NOT NULL,
      expires_ms INTEGER NOT NULL,
      reply TEXT
    ) STRICT;
    CREATE INDEX idempotency_by_expiry ON idempotency (expires_ms);
    CREATE INDEX idempotency_by_age ON idempotency (created_ms) WHERE reply IS NOT NULL;

    CREATE TABLE callback_jobs (
      callback_id TEXT PRIMARY KEY,
      kind TEXT NOT NULL CHECK (kind IN ('scheduled', 'queued', 'redial')),
      state TEXT NOT NULL CHECK (state IN ('pending', 'completed', 'failed', 'cancelled')),
      due_ms INTEGER NOT NULL,
      number_hash TEXT NOT NULL,
      masked_number TEXT NOT NULL,
      e164 TEXT,
      request TEXT NOT NULL,
      cancel_hash TEXT NOT NULL,
      attempts INTEGER NOT NULL DEFAULT 0,
      lease_owner TEXT,
      lease_expires_ms INTEGER,
      interrupted INTEGER NOT NULL DEFAULT 0,
      outcome TEXT,
      created_ms INTEGER NOT NULL,
      updated_ms INTEGER NOT NULL
    ) STRICT;
    CREATE INDEX callback_jobs_due ON callback_jobs (due_ms) WHERE state = 'pending';
    CREATE UNIQUE INDEX callback_jobs_one_scheduled_per_number ON callback_jobs (number_hash) WHERE state = 'pending' AND kind = 'scheduled';
    CREATE INDEX callback_jobs_by_age ON callback_jobs (updated_ms) WHERE state <> 'pending';

    CREATE TABLE consent (
      id INTEGER PRIMARY KEY,
      at_ms INTEGER NOT NULL,
      callback_id TEXT NOT NULL,
      origin TEXT NOT NULL,
      text_sha256 TEXT,
      number_hmac TEXT NOT NULL
    ) STRICT;
    CREATE INDEX consent_by_age ON consent (at_ms);

    CREATE TABLE webhook_outbox (
      event_id TEXT PRIMARY KEY,
      type TEXT NOT NULL,
      callback_id TEXT NOT NULL,
      number_hash TEXT NOT NULL,
      masked_number TEXT NOT NULL,
      body TEXT,
      state TEXT NOT NULL CHECK (state IN ('pending', 'delivered', 'gave_up')),
      created_ms INTEGER NOT NULL,
      next_attempt_ms INTEGER NOT NULL,
      attempts INTEGER NOT NULL DEFAULT 0,
      last_error TEXT,
      lease_owner TEXT,
      lease_expires_ms INTEGER,
      finished_ms INTEGER
    ) STRICT;
    CREATE INDEX webhook_outbox_due ON webhook_outbox (next_attempt_ms) WHERE state = 'pending';
    CREATE INDEX webhook_outbox_by_age ON webhook_outbox (finished_ms) WHERE state <> 'pending';
  `,
};
