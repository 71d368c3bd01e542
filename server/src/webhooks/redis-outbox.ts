// WebhookOutbox in Redis (REDIS_URL): the SQLite outbox's semantics, shared by every relay: a due
// entry is leased to one deliverer at a time, and a lease that expires (its relay died mid-attempt)
// makes it due again (at least once; the receiver dedupes by webhook-id). Each step is one Lua
// script; the keys and their lifetimes are in this folder's README ("The outbox in Redis").
import { WEBHOOK_CHANNEL, type OutboxChannel, type OutboxEntry, type OutboxState, type WebhookOutbox } from './outbox.ts';
import type { LuaScript, RedisConnection } from '../storage/redis/connection.ts';
import { luaFile } from '../storage/redis/lua-file.ts';
import { hashesWhere } from '../storage/redis/scan.ts';
import type { RecordsByNumber } from '../storage/records-by-number.ts';

const DAY_MS = 86_400_000;
const CLAIM_SCAN = 1000;

// One .lua file each in redis-outbox/; the claim is the job store's leased claim (storage/redis/leased-claim.lua).
const outboxScript = (name: string) => luaFile(new URL(`./redis-outbox/${name}.lua`, import.meta.url));
const ENQUEUE = outboxScript('enqueue');
const CLAIM = outboxScript('claim');
const SETTLE = outboxScript('settle');

export function toEntry(h: Record<string, string>): OutboxEntry {
  return {
    eventId: h.id!,
    type: h.type!,
    channel: (h.channel as OutboxChannel | undefined) ?? WEBHOOK_CHANNEL,
    callbackId: h.callbackId!,
    maskedNumber: h.masked!,
    body: h.body ?? null,
    state: h.state as OutboxState,
    attempts: Number(h.attempts ?? 0),
    createdAt: Number(h.created),
    nextAttemptAt: Number(h.next),
    lastError: h.error ?? null,
    finishedAt: h.finished ? Number(h.finished) : null,
  };
}

export function createRedisWebhookOutbox(options: { connection: RedisConnection; retentionDays: number }): WebhookOutbox & RecordsByNumber<OutboxEntry> {
  const { connection } = options;
  const space = connection.keyspace('outbox');
  const retentionMs = options.retentionDays * DAY_MS;
  // The webhook keeps the due set it had before channels existed.
  const dueSet = (channel: OutboxChannel) => (channel === WEBHOOK_CHANNEL ? 'due' : `due:${channel}`);
  const run = (operation: string, script: LuaScript, args: (string | number)[], channel: OutboxChannel = WEBHOOK_CHANNEL) =>
    connection.evalScript(operation, script, [`${space}${dueSet(channel)}`], [space, ...args]);

  async function read(ids: readonly string[]): Promise<OutboxEntry[]> {
    if (ids.length === 0) return [];
    const hashes = await connection.run('outbox.read', (c) => {
      const multi = c.multi();
      for (const id of ids) multi.hGetAll(`${space}ev:${id}`);
      return multi.exec();
    });
    return (hashes as unknown as Record<string, string>[]).filter((h) => h && h.id !== undefined).map(toEntry);
  }

  return {
    async enqueue(event, nowMs) {
      const channel = event.channel ?? WEBHOOK_CHANNEL;
      const fields = {
        id: event.id,
        type: event.type,
        channel,
        dueset: dueSet(channel),
        callbackId: event.callbackId,
        numberHash: event.numberHash,
        masked: event.maskedNumber,
        body: event.body,
        state: 'pending',
        attempts: 0,
        created: nowMs,
        next: nowMs,
        owner: '',
        lease: '',
      };
      return (await run('outbox.enqueue', ENQUEUE, [event.id, nowMs, ...Object.entries(fields).flat()], channel)) === 1;
    },
    async claimDue(owner, nowMs, leaseMs, limit, channel = WEBHOOK_CHANNEL) {
      const ids = (await run('outbox.claim', CLAIM, [owner, nowMs, leaseMs, limit, Math.max(CLAIM_SCAN, limit)], channel)) as string[];
      return (await read(ids)).sort((a, b) => a.nextAttemptAt - b.nextAttemptAt);
    },
    async delivered(eventId, owner, nowMs) {
      return (await run('outbox.settle', SETTLE, [eventId, owner, 'delivered', nowMs, 0, '', retentionMs])) === 1;
    },
    async retry(eventId, owner, nextAttemptAt, error, nowMs) {
      return (await run('outbox.settle', SETTLE, [eventId, owner, 'retry', nowMs, nextAttemptAt, error, retentionMs])) === 1;
    },
    async giveUp(eventId, owner, error, nowMs) {
      return (await run('outbox.settle', SETTLE, [eventId, owner, 'gave_up', nowMs, 0, error, retentionMs])) === 1;
    },
    async get(eventId) {
      const [entry] = await read([eventId]);
      return entry;
    },
    // A scan, for a visitor's data on request: no index leads from a number to its entries.
    async ofNumber(numberHash) {
      const found = await connection.run('outbox.of-number', (c) => hashesWhere(c, connection.topology, space, 'ev:*', 'numberHash', numberHash));
      return found.map((h) => toEntry(h.fields)).sort((a, b) => a.createdAt - b.createdAt);
    },
    async eraseNumber(numberHash) {
      return connection.run('outbox.erase-number', async (c) => {
        const found = await hashesWhere(c, connection.topology, space, 'ev:*', 'numberHash', numberHash);
        if (found.length === 0) return 0;
        const multi = c.multi();
        for (const { key, fields } of found) {
          multi.del(key);
          // Each entry waits in its channel's due set, which it names (the webhook's is "due").
          multi.zRem(`${space}${fields.dueset || 'due'}`, fields.id!);
        }
        await multi.exec();
        return found.length;
      });
    },
    async nextDueAt(channel = WEBHOOK_CHANNEL) {
      const first = await connection.run('outbox.next', (c) => c.zRangeWithScores(`${space}${dueSet(channel)}`, 0, 0));
      return first.length > 0 ? first[0]!.score : null;
    },
    async pendingCount(channel) {
      return connection.run('outbox.pending', (c) => c.zCard(`${space}${dueSet(channel)}`));
    },
  };
}
