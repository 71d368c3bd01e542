// The webhook outbox: events waiting to be delivered, kept durably so a restart (kill -9 included)
// delivers them still. Like callback jobs, a due entry is leased to one deliverer at a time (several
// relays may share one store), and a lease that expires (its relay died mid-attempt) makes the entry
// due again: delivery is at least once, and the receiver dedupes by `webhook-id`.
import type { LeadEvent, LeadEventType } from './events.ts';

export type OutboxState = 'pending' | 'delivered' | 'gave_up';

export interface OutboxEntry {
  eventId: string;
  type: LeadEventType;
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
  enqueue(event: LeadEvent, nowMs: number): Promise<boolean>;
  /** Leases up to `limit` due entries to `owner` (oldest due first), counting an attempt each. */
  claimDue(owner: string, nowMs: number, leaseMs: number, limit: number): Promise<OutboxEntry[]>;
  delivered(eventId: string, owner: string, nowMs: number): Promise<boolean>;
  /** Failed attempt: due again at `nextAttemptAt`, lease released. */
  retry(eventId: string, owner: string, nextAttemptAt: number, error: string, nowMs: number): Promise<boolean>;
  /** No more attempts (past the retry period). */
  giveUp(eventId: string, owner: string, error: string, nowMs: number): Promise<boolean>;
  get(eventId: string): Promise<OutboxEntry | undefined>;
  /** When the next pending entry is due (its lease's end if leased), or null when none is pending. */
  nextDueAt(): Promise<number | null>;
}
