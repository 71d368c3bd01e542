// The webhook outbox: events waiting to be delivered, kept durably so a restart (kill -9 included)
// delivers them still. Like callback jobs, a due entry is leased to one deliverer at a time (several
// relays may share one store), and a lease that expires (its relay died mid-attempt) makes the entry
// due again: delivery is at least once, and the receiver dedupes by `webhook-id`.
//
// Each message has a channel (the lead webhook, or one of the people's channels in notify/), and
// each channel is claimed on its own: a Telegram that keeps failing never holds an email back, nor
// the CRM's events.
import type { LeadEvent } from './events.ts';

export type OutboxState = 'pending' | 'delivered' | 'gave_up';

/** Where a message goes: the lead webhook (the default), or a person's channel (notify/). */
export type OutboxChannel = 'webhook' | 'email' | 'telegram';
export const WEBHOOK_CHANNEL: OutboxChannel = 'webhook';

/** A message to keep: a lead event, or anything shaped like one for another channel. */
export interface OutboxMessage extends Omit<LeadEvent, 'type'> {
  /** A lead event's type, or a notification's kind. */
  type: string;
  /** Unset: the lead webhook. */
  channel?: OutboxChannel;
}

export interface OutboxEntry {
  eventId: string;
  type: string;
  channel: OutboxChannel;
  callbackId: string;
  maskedNumber: string;
  /** null once purged (delivered or given up: the full number is not kept). */
  body: string | null;
  state: OutboxState;
  /** Attempts started so far (each claim is one). */
  attempts: number;
  createdAt: number;
  nextAttemptAt: number;
  lastError: string | null;
  finishedAt: number | null;
}

export interface WebhookOutbox {
  /** Adds the event, due now; false when an event with its id is already there (nothing changes). */
  enqueue(event: OutboxMessage, nowMs: number): Promise<boolean>;
  /** Leases up to `limit` due entries of `channel` (the webhook's by default) to `owner` (oldest due first), counting an attempt each. */
  claimDue(owner: string, nowMs: number, leaseMs: number, limit: number, channel?: OutboxChannel): Promise<OutboxEntry[]>;
  delivered(eventId: string, owner: string, nowMs: number): Promise<boolean>;
  /** Failed attempt: due again at `nextAttemptAt`, lease released. */
  retry(eventId: string, owner: string, nextAttemptAt: number, error: string, nowMs: number): Promise<boolean>;
  /** No more attempts (past the retry period). */
  giveUp(eventId: string, owner: string, error: string, nowMs: number): Promise<boolean>;
  get(eventId: string): Promise<OutboxEntry | undefined>;
  /** When the next pending entry of `channel` is due (its lease's end if leased), or null when none is pending. */
  nextDueAt(channel?: OutboxChannel): Promise<number | null>;
  /** How many entries of `channel` are pending (the backlog, for metrics). */
  pendingCount(channel: OutboxChannel): Promise<number>;
}
