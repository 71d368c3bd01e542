// Schema step 7: outbox channels (the lead webhook, email, Telegram) and the leads of the daily digest. Released: never edit it, add the next step.
import type { Migration } from '../migrations.ts';

export const step7: Migration = {
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
};
