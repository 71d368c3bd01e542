// IdempotencyStore in Redis (REDIS_URL): the SQLite store's semantics (idempotency/sqlite-store.ts),
// shared by every relay, so a key replayed on another relay gets the first answer and no second call.
// `begin` is one script (redis-store/begin.lua), so two relays beginning the same key at once get one
// 'new' and one 409. An entry, running or finished, expires after the idempotency TTL; the logic
// compares the caller's clock with its expiry, so a test clock drives it. Keys: docs/operations.md.
import { isStoreUnavailable } from '../storage/errors.ts';
import type { Answer } from '../contract/answer.ts';
import { idempotencyErrors, onceTicket, replayed, requestIdOf, storedEntries, storedReply, type IdempotencyStore, type IdempotencyStoreOptions } from './idempotency-store.ts';
import type { RedisConnection } from '../storage/redis/connection.ts';
import { luaFile } from '../storage/redis/lua-file.ts';

/** Expired entries removed from the index per call (bounded work per script). */
const EXPIRY_WALK = 100;
const INDEX_SLACK_MS = 60_000;

const BEGIN = luaFile(new URL('./redis-store/begin.lua', import.meta.url));
const COMPLETE = luaFile(new URL('./redis-store/complete.lua', import.meta.url));
const ABANDON = luaFile(new URL('./redis-store/abandon.lua', import.meta.url));
const FORGET = luaFile(new URL('./redis-store/forget.lua', import.meta.url));

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
