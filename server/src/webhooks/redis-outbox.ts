// WebhookOutbox in Redis (REDIS_URL): the SQLite outbox's semantics (webhooks/sqlite-outbox.ts),
// shared by every relay: a due entry is leased to one deliverer at a time; a lease that expires (its
// relay died mid-attempt) makes the entry due again (at least once; the receiver dedupes by
// webhook-id). Each step is one Lua script.
//
// Keys, under the keyspace for the group "outbox" (one hash tag, one Cluster slot):
//   <prefix>{<prefix>outbox}:ev:<eventId>   hash: the entry (body while it may still be delivered)
//   <prefix>{<prefix>outbox}:due            sorted set eventId → when it may be claimed (its next
//                                            attempt, or its lease's end while leased); pending only;
//                                            the lead webhook's entries
//   <prefix>{<prefix>outbox}:due:<channel>  the same for the people's channels (email, telegram):
//                                            each channel is claimed on its own
// An entry names its due set (field `dueset`; the webhook's entries written before channels had
// none, and are the webhook's).
// A pending entry has no TTL; a delivered or given-up one loses its body (it holds the full number)
// and expires DATA_RETENTION_DAYS after it finished.
import { WEBHOOK_CHANNEL, type OutboxChannel, type OutboxEntry, type OutboxState, type WebhookOutbox } from './outbox.ts';
import { lua, type RedisConnection } from '../storage/redis/connection.ts';

const DAY_MS = 86_400_000;
const CLAIM_SCAN = 1000;

const COMMON = `
local space = ARGV[1]
local due = KEYS[1]
local function evKey(id) return space .. 'ev:' .. id end
local function held(k, owner) return redis.call('HGET', k, 'state') == 'pending' and redis.call('HGET', k, 'owner') == owner end
`;

// ARGV: space, id, now, fields…
const ENQUEUE = lua(`${COMMON}
local k = evKey(ARGV[2])
if redis.call('EXISTS', k) == 1 then return 0 end
local fields = {}
for i = 4, #ARGV do fields[#fields + 1] = ARGV[i] end
redis.call('HSET', k, unpack(fields))
redis.call('ZADD', due, tonumber(ARGV[3]), ARGV[2])
return 1
`);

// ARGV: space, owner, now, leaseMs, limit, scan
const CLAIM = lua(`${COMMON}
local owner, now, leaseMs, limit, scan = ARGV[2], tonumber(ARGV[3]), tonumber(ARGV[4]), tonumber(ARGV[5]), tonumber(ARGV[6])
local candidates = {}
for _, id in ipairs(redis.call('ZRANGE', due, '-inf', now, 'BYSCORE', 'LIMIT', 0, scan)) do
  local state, nextAt = unpack(redis.call('HMGET', evKey(id), 'state', 'next'))
  if state == 'pending' then candidates[#candidates + 1] = { id, tonumber(nextAt) } else redis.call('ZREM', due, id) end
end
table.sort(candidates, function(a, b) if a[2] == b[2] then return a[1] < b[1] end return a[2] < b[2] end)
local out = {}
for i = 1, math.min(limit, #candidates) do
  local id = candidates[i][1]
  local k = evKey(id)
  redis.call('HSET', k, 'owner', owner, 'lease', now + leaseMs)
  redis.call('HINCRBY', k, 'attempts', 1)
  redis.call('ZADD', due, now + leaseMs, id)
  out[#out + 1] = id
end
return out
`);

// ARGV: space, id, owner, action ('delivered' | 'retry' | 'gave_up'), now, nextAttemptAt, error, retentionMs
const SETTLE = lua(`${COMMON}
local id, owner, action, now = ARGV[2], ARGV[3], ARGV[4], tonumber(ARGV[5])
local k = evKey(id)
if not held(k, owner) then return 0 end
due = space .. (redis.call('HGET', k, 'dueset') or 'due')
redis.call('HSET', k, 'owner', '', 'lease', '')
if action == 'retry' then
  redis.call('HSET', k, 'next', ARGV[6], 'error', ARGV[7])
  redis.call('ZADD', due, tonumber(ARGV[6]), id)
  return 1
end
redis.call('HSET', k, 'state', action, 'finished', now)
if action == 'gave_up' then redis.call('HSET', k, 'error', ARGV[7]) end
redis.call('HDEL', k, 'body')
redis.call('ZREM', due, id)
redis.call('PEXPIRE', k, tonumber(ARGV[8]))
return 1
`);

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

export function createRedisWebhookOutbox(options: { connection: RedisConnection; retentionDays: number }): WebhookOutbox {
  const { connection } = options;
  const space = connection.keyspace('outbox');
  const retentionMs = options.retentionDays * DAY_MS;
  // The webhook keeps the due set it had before channels existed.
  const dueSet = (channel: OutboxChannel) => (channel === WEBHOOK_CHANNEL ? 'due' : `due:${channel}`);
  const run = (operation: string, script: ReturnType<typeof lua>, args: (string | number)[], channel: OutboxChannel = WEBHOOK_CHANNEL) =>
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
    async nextDueAt(channel = WEBHOOK_CHANNEL) {
      const first = await connection.run('outbox.next', (c) => c.zRangeWithScores(`${space}${dueSet(channel)}`, 0, 0));
      return first.length > 0 ? first[0]!.score : null;
    },
    async pendingCount(channel) {
      return connection.run('outbox.pending', (c) => c.zCard(`${space}${dueSet(channel)}`));
    },
  };
}
