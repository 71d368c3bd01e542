// WebhookOutbox in the SQLite file: every step commits before it returns. The event's body (which
// holds the full number) stays only while the event may still be delivered: purge.ts empties it once
// the entry is delivered or given up.
import type { DatabaseSync } from 'node:sqlite';
import { WEBHOOK_CHANNEL, type OutboxChannel, type OutboxEntry, type OutboxState, type WebhookOutbox } from './outbox.ts';

interface Row {
  event_id: string;
  type: string;
  channel: OutboxChannel;
  callback_id: string;
  masked_number: string;
  body: string | null;
  state: OutboxState;
  attempts: number;
  created_ms: number;
  next_attempt_ms: number;
  last_error: string | null;
  finished_ms: number | null;
}

export const toEntry = (r: Row): OutboxEntry => ({
  eventId: r.event_id,
  type: r.type,
  channel: r.channel,
  callbackId: r.callback_id,
  maskedNumber: r.masked_number,
  body: r.body,
  state: r.state,
  attempts: r.attempts,
  createdAt: r.created_ms,
  nextAttemptAt: r.next_attempt_ms,
  lastError: r.last_error,
  finishedAt: r.finished_ms,
});

export function createSqliteWebhookOutbox(options: { db: DatabaseSync }): WebhookOutbox {
  const { db } = options;
  const sql = {
    insert: db.prepare(`INSERT OR IGNORE INTO webhook_outbox (event_id, type, channel, callback_id, number_hash, masked_number, body, state, created_ms, next_attempt_ms)
      VALUES (?, ?, ?, ?, ?, ?, ?, 'pending', ?, ?)`),
    claim: db.prepare(`UPDATE webhook_outbox SET lease_owner = ?, lease_expires_ms = ?, attempts = attempts + 1
      WHERE event_id IN (SELECT event_id FROM webhook_outbox
        WHERE state = 'pending' AND channel = ? AND next_attempt_ms <= ? AND (lease_owner IS NULL OR lease_expires_ms <= ?) ORDER BY next_attempt_ms LIMIT ?)
      RETURNING *`),
    delivered: db.prepare(
      "UPDATE webhook_outbox SET state = 'delivered', lease_owner = NULL, lease_expires_ms = NULL, finished_ms = ? WHERE event_id = ? AND state = 'pending' AND lease_owner = ?",
    ),
    retry: db.prepare(
      "UPDATE webhook_outbox SET next_attempt_ms = ?, last_error = ?, lease_owner = NULL, lease_expires_ms = NULL WHERE event_id = ? AND state = 'pending' AND lease_owner = ?",
    ),
    giveUp: db.prepare(
      "UPDATE webhook_outbox SET state = 'gave_up', last_error = ?, lease_owner = NULL, lease_expires_ms = NULL, finished_ms = ? WHERE event_id = ? AND state = 'pending' AND lease_owner = ?",
    ),
    get: db.prepare('SELECT * FROM webhook_outbox WHERE event_id = ?'),
    nextDue: db.prepare("SELECT MIN(MAX(next_attempt_ms, COALESCE(lease_expires_ms, 0))) AS at FROM webhook_outbox WHERE state = 'pending' AND channel = ?"),
    pending: db.prepare("SELECT COUNT(*) AS n FROM webhook_outbox WHERE state = 'pending' AND channel = ?"),
  };
  return {
    async enqueue(event, nowMs) {
      return sql.insert.run(event.id, event.type, event.channel ?? WEBHOOK_CHANNEL, event.callbackId, event.numberHash, event.maskedNumber, event.body, nowMs, nowMs).changes === 1;
    },
    async claimDue(owner, nowMs, leaseMs, limit, channel = WEBHOOK_CHANNEL) {
      const rows = sql.claim.all(owner, nowMs + leaseMs, channel, nowMs, nowMs, limit) as unknown as Row[];
      return rows.map(toEntry).sort((a, b) => a.nextAttemptAt - b.nextAttemptAt);
    },
    async delivered(eventId, owner, nowMs) {
      return sql.delivered.run(nowMs, eventId, owner).changes === 1;
    },
    async retry(eventId, owner, nextAttemptAt, error, _nowMs) {
      return sql.retry.run(nextAttemptAt, error, eventId, owner).changes === 1;
    },
    async giveUp(eventId, owner, error, nowMs) {
      return sql.giveUp.run(error, nowMs, eventId, owner).changes === 1;
    },
    async get(eventId) {
      const row = sql.get.get(eventId) as Row | undefined;
      return row && toEntry(row);
    },
    async nextDueAt(channel = WEBHOOK_CHANNEL) {
      const { at } = sql.nextDue.get(channel) as { at: number | null };
      return at;
    },
    async pendingCount(channel) {
      return (sql.pending.get(channel) as { n: number }).n;
    },
  };
}
