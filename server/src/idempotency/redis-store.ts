// IdempotencyStore in Redis (REDIS_URL): the SQLite store's semantics (idempotency/sqlite-store.ts),
// shared by every relay, so a key replayed on another relay gets the first answer and no second
// call. `begin` is one Lua script: it expires, looks up, makes room and inserts atomically, so two
// relays beginning the same key at once get one 'new' and one 409.
//
// Keys, under the connection's keyspace for the group "idem" (one hash tag, one Cluster slot):
//   <prefix>{<prefix>idem}:k:<id>   hash {f: keyed fingerprint, c: created ms, e: expires ms, r: reply JSON (absent while running)}
//   <prefix>{<prefix>idem}:all      sorted set id → expires ms (every live entry: size, expiry walk)
//   <prefix>{<prefix>idem}:done     sorted set id → created ms (finished entries: the oldest make room)
// <id> is the SHA-256 (base64url) of site and key; the fingerprint is kept only as an HMAC with
// HASH_SECRET, as in the SQLite file (a body can be little more than a number).
//
// TTLs: every entry key expires after the idempotency TTL, running or finished: after a crash a key
// whose request was running stays "in progress" until then (the call may have been placed, so a
// retry is answered 409, never rung twice), exactly the SQLite rule. The two index sets expire a
// minute after the newest entry. The logic compares the caller's clock with `e` (expiry in Redis is
// garbage collection), so a test clock drives it like the other stores.
import { isStoreUnavailable } from '../storage/errors.ts';
import type { Answer } from '../answer.ts';
import { idempotencyErrors, onceTicket, replayed, requestIdOf, storedEntries, storedReply, type IdempotencyStore, type IdempotencyStoreOptions } from './idempotency-store.ts';
import { lua, type RedisConnection } from '../storage/redis/connection.ts';

/** Expired entries removed from the index per call (bounded work per script). */
const EXPIRY_WALK = 100;
const INDEX_SLACK_MS = 60_000;

// KEYS: all, done. ARGV: keyspace, id, fingerprint, now, ttlMs, maxKeys, evictBatch, walk, slackMs
// Returns {'new', created} | {'replay', replyJson} | {'reused'} | {'running'} | {'full'}
const BEGIN = lua(`
local all, done = KEYS[1], KEYS[2]
local space, id, fp = ARGV[1], ARGV[2], ARGV[3]
local now, ttl, max, batch, walk, slack = tonumber(ARGV[4]), tonumber(ARGV[5]), tonumber(ARGV[6]), tonumber(ARGV[7]), tonumber(ARGV[8]), tonumber(ARGV[9])
local function drop(eid)
  redis.call('DEL', space .. 'k:' .. eid)
  redis.call('ZREM', all, eid)
  redis.call('ZREM', done, eid)
end
local function expire(n)
  for _, eid in ipairs(redis.call('ZRANGE', all, '-inf', now, 'BYSCORE', 'LIMIT', 0, n)) do drop(eid) end
end
expire(walk)
local key = space .. 'k:' .. id
local found = redis.call('HMGET', key, 'f', 'c', 'e', 'r')
local prevCreated = nil
if found[1] then
  if tonumber(found[3]) > now then
    if found[1] ~= fp then return {'reused'} end
    if not found[4] then return {'running'} end
    return {'replay', found[4]}
  end
  prevCreated = tonumber(found[2])
  drop(id)
end
if redis.call('ZCARD', all) >= max then
  expire(max)
  if redis.call('ZCARD', all) >= max then
    for _, eid in ipairs(redis.call('ZRANGE', done, 0, batch - 1)) do drop(eid) end
  end
  if redis.call('ZCARD', all) >= max then return {'full'} end
end
local created = now
if prevCreated and prevCreated >= now then created = prevCreated + 1 end
redis.call('HSET', key, 'f', fp, 'c', created, 'e', now + ttl)
redis.call('PEXPIRE', key, ttl)
redis.call('ZADD', all, now + ttl, id)
redis.call('PEXPIRE', all, ttl + slack)
redis.call('PEXPIRE', done, ttl + slack)
return {'new', tostring(created)}
`);

// KEYS: entry, done. ARGV: created, replyJson, id
const COMPLETE = lua(`
if redis.call('HGET', KEYS[1], 'c') ~= ARGV[1] or redis.call('HEXISTS', KEYS[1], 'r') == 1 then return 0 end
redis.call('HSET', KEYS[1], 'r', ARGV[2])
redis.call('ZADD', KEYS[2], tonumber(ARGV[1]), ARGV[3])
return 1
`);

// KEYS: entry, all, done. ARGV: created, id
const ABANDON = lua(`
if redis.call('HGET', KEYS[1], 'c') ~= ARGV[1] or redis.call('HEXISTS', KEYS[1], 'r') == 1 then return 0 end
redis.call('DEL', KEYS[1])
redis.call('ZREM', KEYS[2], ARGV[2])
redis.call('ZREM', KEYS[3], ARGV[2])
return 1
`);

// KEYS: entry, all, done. ARGV: id. A finished entry only (forgetAnswers).
const FORGET = lua(`
if redis.call('HEXISTS', KEYS[1], 'r') == 0 then return 0 end
redis.call('DEL', KEYS[1])
redis.call('ZREM', KEYS[2], ARGV[1])
redis.call('ZREM', KEYS[3], ARGV[1])
return 1
`);
/** Finished entries read per step of forgetAnswers' walk over `done`. */
const FORGET_BATCH = 500;

export function createRedisIdempotencyStore(options: IdempotencyStoreOptions & { connection: RedisConnection; hashSecret: string }): IdempotencyStore {
  const { connection } = options;
  const { idOf, keyed, now, ttlMs, evictionBatch } = storedEntries(options);
  const space = connection.keyspace('idem');
  const all = `${space}all`;
  const done = `${space}done`;
  const entryKey = (id: string) => `${space}k:${id}`;

  return {
    async begin(scope, idempotencyKey, requestFingerprint) {
      const id = idOf(scope, idempotencyKey);
      const answer = (await connection.evalScript(
        'idempotency.begin',
        BEGIN,
        [all, done],
        [space, id, keyed(requestFingerprint), now(), ttlMs, options.maxKeys, evictionBatch, EXPIRY_WALK, INDEX_SLACK_MS],
        // A key taken must survive a failover (REDIS_MIN_REPLICAS), or a retry rings again.
        { durable: true },
      )) as string[];
      switch (answer[0]) {
        case 'reused':
          throw idempotencyErrors.reused();
        case 'running':
          throw idempotencyErrors.inProgress();
        case 'full':
          throw idempotencyErrors.full();
        case 'replay':
          return { kind: 'replay', reply: replayed(JSON.parse(answer[1]!) as Answer) };
      }
      const created = answer[1]!;
      return {
        kind: 'new',
        ticket: onceTicket(
          async (reply) => {
            try {
              await connection.evalScript('idempotency.complete', COMPLETE, [entryKey(id), done], [created, storedReply(reply), id], { durable: true });
            } catch (err) {
              // Redis went away after the call was placed: the answer is not remembered, so the key
              // stays "in progress" until its TTL — repeats are refused 409, never rung again — and
              // this request still gets its answer.
              if (!isStoreUnavailable(err)) throw err;
            }
          },
          async () => {
            await connection.evalScript('idempotency.abandon', ABANDON, [entryKey(id), all, done], [created, id]);
          },
        ),
      };
    },

    async has(scope, idempotencyKey) {
      const expires = await connection.run('idempotency.has', (c) => c.hGet(entryKey(idOf(scope, idempotencyKey)), 'e'));
      return expires != null && Number(expires) > now();
    },

    size: () => connection.run('idempotency.size', (c) => c.zCard(all)),

    async forgetAnswers(requestIds) {
      if (requestIds.size === 0) return 0;
      let forgotten = 0;
      let cursor = '0';
      do {
        const page = await connection.run('idempotency.forget.scan', (c) => c.zScan(done, cursor, { COUNT: FORGET_BATCH }));
        cursor = String(page.cursor);
        const ids = page.members.map((m) => m.value);
        if (ids.length === 0) continue;
        const replies = (await connection.run('idempotency.forget.read', (c) => {
          const multi = c.multi();
          for (const id of ids) multi.hGet(entryKey(id), 'r');
          return multi.exec();
        })) as unknown as Array<string | null>;
        for (const [i, reply] of replies.entries()) {
          const requestId = reply ? requestIdOf(JSON.parse(reply) as Answer) : null;
          if (requestId && requestIds.has(requestId)) forgotten += Number(await connection.evalScript('idempotency.forget', FORGET, [entryKey(ids[i]!), all, done], [ids[i]!]));
        }
      } while (cursor !== '0');
      return forgotten;
    },
  };
}
