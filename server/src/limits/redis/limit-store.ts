// LimitStore in Redis (REDIS_URL): the memory store's semantics (limits/memory/limit-store.ts),
// shared by every relay. Each operation is one Lua script (limit-scripts.ts), so a consume over five
// tables is all-or-nothing even with many relays; the peeks and consumes of one tick share a script,
// strikes are held up to 100 ms and written together (strike-buffer.ts), and the look before a
// request's body is answered from this relay's copy of the blocked subjects (blocked-copy.ts).
// Keys, and why every limit key shares one hash tag: limits/README.md.
import { ErrorReply } from 'redis';
import type { LimitCheck, LimitDecision, LimitStore, Receipt, Refusal } from '../limit-store.ts';
import { StoreUnavailableError } from '../../storage/errors.ts';
import type { RedisConnection } from '../../storage/redis/connection.ts';
import { gatherSameTick } from '../../storage/redis/same-tick.ts';
import { ACQUIRE, BLOCKS_SINCE, CONSUME_EACH, PEEK_EACH, REFUND, RELEASE, STRIKE_EACH, strikeArgs } from './limit-scripts.ts';
import { createBlockedCopy, type BlockedCopy, type BlockedCopyOptions } from './blocked-copy.ts';
import { createStrikeBuffer } from './strike-buffer.ts';
import { signatureOf, specOf } from './rule-specs.ts';
import { entriesOf, refundArgs } from './receipt.ts';
import type { Timers } from '../../lib/timers.ts';

/** The memory store's answer when it cannot take a new key. */
const FULL: Refusal = { reason: 'limiter_full', retryAfter: 60 };

export interface RedisLimitStoreOptions {
  connection: RedisConnection;
  /** Longest a refused request's strike waits in this relay's memory before it is written (strike-buffer.ts; default 100 ms). */
  strikeFlushMs?: number;
  /** What the strikes' flush waits on (tests move it on). */
  timers?: Timers;
  /**
   * Keep a copy of the blocked subjects and answer `blockedNow` from it (blocked-copy.ts; the
   * relay's stores do). Its polls run on `timers` unless given their own.
   */
  blockedCopy?: Omit<BlockedCopyOptions, 'read'>;
}

export interface RedisLimitStore extends LimitStore {
  strike(check: LimitCheck, nowMs: number): Promise<boolean>;
  /**
   * Writes the strikes held now and waits until Redis answered every write of them (whatever it
   * answered): at the relay's shutdown (SIGTERM), so no strike held is left behind.
   */
  flushStrikes(): Promise<void>;
  /** Stops the blocked copy's polls (at shutdown, before the connection closes). */
  stop(): void;
  /** The copy of the blocked subjects, when kept (tests). */
  readonly copy: BlockedCopy | null;
}

/** The strike buffer's default wait: as the embedded store's for its strikes' commit. */
const STRIKE_FLUSH_MS = 100;
/** Most records one strikes' script writes, as a batch of peeks or consumes. */
const STRIKE_RECORDS_MAX = 128;

function assertHexKey(key: string): void {
  if (key.length < 16 || !/^[0-9a-f]+$/i.test(key)) throw new Error('limit keys must be hex hashes of at least 16 digits');
}

const isOutOfMemory = (err: unknown) => err instanceof StoreUnavailableError && err.cause instanceof ErrorReply && err.cause.message.startsWith('OOM');

export function createRedisLimitStore(options: RedisLimitStoreOptions): RedisLimitStore {
  const { connection } = options;
  const space = connection.keyspace('limits');
  // 64 bits of the keyed hash name a subject, as in the memory store's fingerprints: collisions are
  // negligible at millions of keys, and the shorter key saves ~24 bytes of Redis memory per key.
  /** "<table>:<16 hex>": a record's name within the keyspace, as the blocked subjects name it too. */
  const subjectOf = (check: LimitCheck) => `${check.table}:${check.key.slice(0, 16).toLowerCase()}`;
  const recordKey = (check: LimitCheck) => `${space}${subjectOf(check)}`;
  const inFlightKey = (key: string) => `${space}in_flight:${key.slice(0, 16)}`;
  /** The rules each table was first consumed with, in this process: two rule sets for one table is a bug. */
  const signatures = new Map<string, string>();
  /** The blocked subjects' set, change counter and change log (blocks.lua), last in every write script's keys. */
  const blocks = [`${space}blocks`, `${space}blocks:seq`, `${space}blocks:log`];
  const copy = options.blockedCopy
    ? createBlockedCopy({
        ...(options.timers && { timers: options.timers }),
        ...options.blockedCopy,
        read: (since, maxSubjects) => connection.evalScript('limits.blocks', BLOCKS_SINCE, blocks, [since, maxSubjects]),
      })
    : null;
  const took = (changes: unknown) => {
    if (copy && Array.isArray(changes)) copy.took(changes as string[]);
  };

  // A refused request's strikes, summed per record and written a few times a second (strike-buffer.ts).
  const strikes = createStrikeBuffer({
    write: async (records) => took(await connection.evalScript('limits.strike', STRIKE_EACH, [...records.map((r) => r.key), ...blocks], strikeArgs(records))),
    flushMs: options.strikeFlushMs ?? STRIKE_FLUSH_MS,
    maxRecords: STRIKE_RECORDS_MAX,
    ...(options.timers && { timers: options.timers }),
  });

  // Peeks and consumes made in the same tick go as one script (peek-each.lua, consume-each.lua): a request's
  // look at its client, networks and strikes, or its strikes recorded, is one command, not four or
  // two.
  type Op = { keys: string[]; now: number; specs: string[] };
  type Look = { key: string; now: number; spec: string };
  const peekAtOnce = gatherSameTick<Look, number[]>(
    async (looks) => {
      // The same look asked twice is read once: a flood's new addresses share their network's records.
      const unique = new Map<string, number>();
      const keys: string[] = [];
      const args: Array<string | number> = [];
      const slots = looks.map((look) => {
        const id = `${look.key} ${look.now} ${look.spec}`;
        let slot = unique.get(id);
        if (slot === undefined) {
          slot = keys.length;
          unique.set(id, slot);
          keys.push(look.key);
          // Taken as the script is sent: strikes written since the look was asked are in a script sent before it.
          args.push(look.now, look.spec, strikes.pending(look.key));
        }
        return slot;
      });
      const replies = (await connection.evalScript('limits.peek', PEEK_EACH, keys, args)) as number[][];
      return slots.map((slot) => replies[slot]!);
    },
    // Read-only: peeks made while one batch is on its way go together once it is answered.
    { oneInFlight: true },
  );
  // durable: a number's cooldown lost in a failover would let it be rung again at once.
  const consumeAtOnce = gatherSameTick<Op, number[]>(async (ops) => {
    const replies = (await connection.evalScript(
      'limits.consume',
      CONSUME_EACH,
      [...ops.flatMap((op) => op.keys), ...blocks],
      ops.flatMap((op) => [op.now, op.keys.length, ...op.specs]),
      { durable: true },
    )) as number[][];
    // Last: the changes to the blocked subjects.
    took(replies.pop());
    return replies;
  });

  /** The rules in spec order, to name a refusal by its index. */
  const rulesOf = (check: LimitCheck) => [...(check.counts ?? []), ...(check.distinct ? [check.distinct] : [])];

  function assertSameRules(check: LimitCheck, register: boolean): void {
    const signature = signatureOf(check);
    const known = signatures.get(check.table);
    if (known === undefined) {
      if (register) signatures.set(check.table, signature);
    } else if (known !== signature) {
      throw new Error(`limit table "${check.table}" used with two different rule sets`);
    }
  }

  return {
    async consume(checks, nowMs) {
      for (const check of checks) {
        assertHexKey(check.key);
        assertSameRules(check, true);
      }
      const now = Math.floor(nowMs / 1000);
      const keys = checks.map(recordKey);
      // A record with strikes held (a CAPTCHA's strike charged up front) judges them: written first.
      if (keys.some((key) => strikes.holds(key))) void strikes.flush();
      let reply: number[];
      try {
        reply = await consumeAtOnce({ keys, now, specs: checks.map(specOf) });
      } catch (err) {
        if (isOutOfMemory(err)) return { ok: false, refusals: [FULL] } satisfies LimitDecision;
        throw err;
      }
      if (Number(reply[0]) === 0) {
        const refusals: Refusal[] = [];
        for (let i = 1; i + 2 < reply.length; i += 3) {
          const rule = rulesOf(checks[Number(reply[i]) - 1]!)[Number(reply[i + 1]) - 1]!;
          refusals.push({ reason: rule.reason, retryAfter: Number(reply[i + 2]) });
        }
        return { ok: false, refusals };
      }
      return { ok: true, receipt: { at: now, entries: entriesOf(checks, keys, reply, now) } };
    },

    async peek(check, nowMs) {
      assertHexKey(check.key);
      assertSameRules(check, false);
      const reply = await peekAtOnce({ key: recordKey(check), now: Math.floor(nowMs / 1000), spec: specOf(check) });
      if (reply.length === 0) return [];
      const rules = rulesOf(check);
      const refusals: Refusal[] = [];
      for (let i = 0; i + 1 < reply.length; i += 2) {
        refusals.push({ reason: rules[Number(reply[i]) - 1]!.reason, retryAfter: Number(reply[i + 1]) });
      }
      return refusals;
    },

    strike(check, nowMs) {
      assertHexKey(check.key);
      assertSameRules(check, true);
      return strikes.add(recordKey(check), specOf(check), Math.floor(nowMs / 1000)).then(
        () => true,
        (err: unknown) => {
          if (isOutOfMemory(err)) return false;
          throw err;
        },
      );
    },

    flushStrikes: () => strikes.drain(),

    blockedNow(checks, nowMs) {
      // A copy is only as good as its last poll, and no better than a connection that is down.
      if (copy === null || !copy.fresh() || !connection.ready) return null;
      const nowSec = Math.floor(nowMs / 1000);
      const refusals: Refusal[] = [];
      for (const check of checks) {
        const name = subjectOf(check);
        const held = strikes.heldCount(`${space}${name}`);
        // A client's strikes held here are judged by Redis with them added (the look script), so
        // on one relay a client is refused up front exactly at its LIMIT_CLIENT_REFUSALS-th
        // refusal. A network's are counted here only when they alone reach its limit; with those
        // already written they count once written (at most 100 ms), as another relay's do.
        if (held > 0 && check.table === 'client_refusals') return null;
        const blocks = copy.blocked(name, nowSec);
        if (blocks.length > 0) {
          const rules = rulesOf(check);
          for (const [rule, retryAfter] of blocks) {
            const reason = rules[rule - 1]?.reason;
            if (reason !== undefined) refusals.push({ reason, retryAfter });
          }
        }
        // Held strikes are all from the last moment: the block frees about a window from now.
        if (held > 0) for (const r of check.counts ?? []) if (held >= r.limit) refusals.push({ reason: r.reason, retryAfter: r.windowSec });
      }
      return refusals;
    },

    stop: () => copy?.stop(),
    copy,

    async refund(receipt: Receipt) {
      if (receipt.entries.length === 0) return;
      const { keys, args } = refundArgs(receipt);
      took(await connection.evalScript('limits.refund', REFUND, [...keys, ...blocks], args));
    },

    async acquire(key, max, ttlMs, nowMs) {
      // Out of memory this rejects too (StoreUnavailableError): a slot that cannot be recorded is not given.
      const taken = await connection.evalScript('limits.acquire', ACQUIRE, [inFlightKey(key)], [max, Math.max(1, Math.ceil(ttlMs)), Math.floor(nowMs)], { durable: true });
      return Number(taken) === 1;
    },

    async release(key) {
      await connection.evalScript('limits.release', RELEASE, [inFlightKey(key)], []);
    },

    sizes() {
      // Key counts live in Redis (INFO keyspace, or a SCAN by the operator); counting them here
      // would cost a round trip per /metrics scrape.
      return {};
    },
  };
}
