// WebhookOutbox in memory, for tests and benchmarks (the relay's default is the SQLite outbox).
import { WEBHOOK_CHANNEL, type OutboxEntry, type WebhookOutbox } from './outbox.ts';

interface Held {
  entry: OutboxEntry;
  /** The keyed hash of the event's number: a visitor's data on request finds and erases by it. */
  numberHash: string;
  leaseOwner: string | null;
  leaseExpiresAt: number;
}

/** The memory outbox, with what a visitor's data on request needs (number-data/memory-number-records.ts). */
export interface MemoryWebhookOutbox extends WebhookOutbox {
  ofNumber(numberHash: string): OutboxEntry[];
  eraseNumber(numberHash: string): number;
}

export function createMemoryWebhookOutbox(): MemoryWebhookOutbox {
  const entries = new Map<string, Held>();
  const held = (eventId: string, owner: string) => {
    const h = entries.get(eventId);
    return h && h.entry.state === 'pending' && h.leaseOwner === owner ? h : undefined;
  };
  const release = (h: Held) => {
    h.leaseOwner = null;
    h.leaseExpiresAt = 0;
  };
  return {
    async enqueue(event, nowMs) {
      if (entries.has(event.id)) return false;
      entries.set(event.id, {
        numberHash: event.numberHash,
        entry: {
          eventId: event.id,
          type: event.type,
          channel: event.channel ?? WEBHOOK_CHANNEL,
          callbackId: event.callbackId,
          maskedNumber: event.maskedNumber,
          body: event.body,
          state: 'pending',
          attempts: 0,
          createdAt: nowMs,
          nextAttemptAt: nowMs,
          lastError: null,
          finishedAt: null,
        },
        leaseOwner: null,
        leaseExpiresAt: 0,
      });
      return true;
    },
    async claimDue(owner, nowMs, leaseMs, limit, channel = WEBHOOK_CHANNEL) {
      const due = [...entries.values()]
        .filter((h) => h.entry.state === 'pending' && h.entry.channel === channel && h.entry.nextAttemptAt <= nowMs && (h.leaseOwner === null || h.leaseExpiresAt <= nowMs))
        .sort((a, b) => a.entry.nextAttemptAt - b.entry.nextAttemptAt)
        .slice(0, limit);
      for (const h of due) {
        h.leaseOwner = owner;
        h.leaseExpiresAt = nowMs + leaseMs;
        h.entry.attempts++;
      }
      return due.map((h) => ({ ...h.entry }));
    },
    async delivered(eventId, owner, nowMs) {
      const h = held(eventId, owner);
      if (!h) return false;
      Object.assign(h.entry, { state: 'delivered', finishedAt: nowMs });
      release(h);
      return true;
    },
    async retry(eventId, owner, nextAttemptAt, error) {
      const h = held(eventId, owner);
      if (!h) return false;
      Object.assign(h.entry, { nextAttemptAt, lastError: error });
      release(h);
      return true;
    },
    async giveUp(eventId, owner, error, nowMs) {
      const h = held(eventId, owner);
      if (!h) return false;
      Object.assign(h.entry, { state: 'gave_up', lastError: error, finishedAt: nowMs });
      release(h);
      return true;
    },
    async get(eventId) {
      const h = entries.get(eventId);
      return h && { ...h.entry };
    },
    async nextDueAt(channel = WEBHOOK_CHANNEL) {
      let next: number | null = null;
      for (const h of entries.values()) {
        if (h.entry.state !== 'pending' || h.entry.channel !== channel) continue;
        const at = Math.max(h.entry.nextAttemptAt, h.leaseExpiresAt);
        if (next === null || at < next) next = at;
      }
      return next;
    },
    async pendingCount(channel) {
      let count = 0;
      for (const h of entries.values()) if (h.entry.state === 'pending' && h.entry.channel === channel) count++;
      return count;
    },
    ofNumber: (numberHash) => [...entries.values()].filter((h) => h.numberHash === numberHash).map((h) => ({ ...h.entry })),
    eraseNumber(numberHash) {
      const erased = [...entries].filter(([, h]) => h.numberHash === numberHash);
      for (const [id] of erased) entries.delete(id);
      return erased.length;
    },
  };
}
