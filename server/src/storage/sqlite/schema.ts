// The relay's schema, one migration per change (migrations.ts applies them). Never edit a released
// step: add the next one. Times are milliseconds since the epoch (INTEGER); keys of limits and
// numbers are keyed hashes (HMAC with HASH_SECRET), never the number itself. Only two columns can
// hold a full number: callback_jobs.e164 and webhook_outbox.body, both emptied by the purge
// (purge.ts) once no call can be placed and no webhook delivered with them.
import type { Migration } from './migrations.ts';

export const migrations: readonly Migration[] = [
  {
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
  },
  {
    version: 2,
    name: 'callback job notes: what the placer remembers between attempts',
    sql: `ALTER TABLE callback_jobs ADD COLUMN notes TEXT;`,
  },
  {
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
  },
  {
    version: 4,
    name: 'consent records: whether the box was ticked, and the privacy notice linked',
    // Until this step a record was written only for a visitor who had ticked the box, so every
    // row already here is one of a ticked box; none knew of a privacy notice (null). No DEFAULT on
    // consented: a new row must say it, never inherit a "yes".
    sql: `
      ALTER TABLE consent ADD COLUMN consented INTEGER CHECK (consented IN (0, 1));
      UPDATE consent SET consented = 1;
      ALTER TABLE consent ADD COLUMN privacy_url TEXT;
    `,
  },
  {
    version: 5,
    name: 'callback jobs: the department a call is from',
    // Null for every job already here: a relay before departments had one office, which is the
    // first department of a relay that has them now.
    sql: `ALTER TABLE callback_jobs ADD COLUMN department TEXT;`,
  },
  {
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
  },
  {
    version: 7,
    name: 'outbox channels (the lead webhook, email, Telegram) and the leads of the daily digest',
    // Every row already here is a lead webhook event. Each channel is claimed on its own, so the
    // due index leads with it. notify_leads keeps what the daily digest counts: one row per lead
    // (no number, not even masked), its source and where it stands, dropped after a week.
    sql: `
      ALTER TABLE webhook_outbox ADD COLUMN channel TEXT NOT NULL DEFAULT 'webhook';
      DROP INDEX webhook_outbox_due;
      CREATE INDEX webhook_outbox_due ON webhook_outbox (channel, next_attempt_ms) WHERE state = 'pending';

      CREATE TABLE notify_leads (
        callback_id TEXT PRIMARY KEY,
        created_ms INTEGER NOT NULL,
        utm_source TEXT,
        outcome TEXT NOT NULL
      ) STRICT;
      CREATE INDEX notify_leads_by_time ON notify_leads (created_ms);
    `,
  },
  {
    version: 8,
    name: 'the lead report: leads found by their group',
    // A group with a recent lead always has room for its opens (report/report-store.ts,
    // LEAD_GROUP_DAYS): a day's new open group asks this index once, whatever the number of leads.
    sql: `CREATE INDEX lead_facts_by_group ON lead_facts (source, medium, campaign, department, page, at_ms);`,
  },
  {
    version: 9,
    name: "the lead report: each lead's consent mark",
    // Whether the widget read the tracking cookies (tracking-consent/snapshot.ts); '' for every lead
    // already here: nothing told it then.
    sql: `ALTER TABLE lead_facts ADD COLUMN consent TEXT NOT NULL DEFAULT '';`,
  },
];
