// LimitStore on the embedded SQLite file, with the memory store (limits/memory/limit-store.ts) as
// its hot path: every answer comes from memory, every change is also written as an event and
// replayed at startup. An accepted request's counts are in the file before its call is placed;
// refusals' strikes are committed together, at most 100 ms later, so a flood costs a few commits a
// second. When writes reach the file, and why: limits/README.md.
import type { DatabaseSync, StatementSync } from 'node:sqlite';
import type { LimitCheck, LimitStore, Receipt } from '../limit-store.ts';
import { createMemoryLimitStore } from '../memory/limit-store.ts';
import { transaction } from '../../storage/sqlite/database.ts';
import { realTimers, type Timers } from '../../lib/timers.ts';

export interface SqliteLimitStoreOptions {
  db: DatabaseSync;
  /** Most keys any one table holds in memory (LIMITER_MAX_KEYS). */
  maxKeysPerTable: number;
  /** Tables whose counts may wait for the end of the turn: the limiter's 'client_refusals' (strikes). */
  batchedTables?: readonly string[];
  /** How often old events are pruned; 0: only when `prune` is called. */
  pruneIntervalMs?: number;
  /** Longest a change that does not wait (a strike, a freed slot) stays queued (default 100 ms). */
  batchDelayMs?: number;
  now?: () => number;
  /** What the batched commit waits on (tests move it on). */
  timers?: Timers;
}

export interface SqliteLimitStore extends LimitStore {
  /** Commits whatever is queued now. */
  flush(): void;
  /** Deletes events that can no longer change an answer; returns how many. */
  prune(nowMs: number): number;
  /** Flushes and stops the prune timer (the database stays open: its owner closes it). */
  close(): void;
}

interface TableInfo {
  longestMs: number;
  distinct: boolean;
  /** Set while the table's events are being replayed. */
  replayed: Promise<void> | undefined;
}

/** One check of an accepted request; `rowIds` of its request are filled in when written. */
type Pending = { table: string; key: string; member: string | null; atMs: number; rowIds: number[] };

/**
 * The memory store's receipt with the rows its request wrote (filled in when written), for
 * refunds. Carried on the receipt rather than in a WeakMap beside it: every strike of a flood
 * makes a receipt, and a WeakMap entry per receipt is work for every garbage collection.
 */
interface SqliteReceipt extends Receipt {
  readonly rowIds: number[];
  refunded: boolean;
}

export function createSqliteLimitStore(options: SqliteLimitStoreOptions): SqliteLimitStore {
  const { db } = options;
  const now = options.now ?? Date.now;
  const batched = new Set(options.batchedTables ?? []);

  const originRow = db.prepare("SELECT value FROM meta WHERE key = 'limit_origin_ms'").get() as { value: string } | undefined;
  const origin = originRow ? Number(originRow.value) : now();
  if (!originRow) db.prepare("INSERT INTO meta (key, value) VALUES ('limit_origin_ms', ?)").run(String(origin));
  const memory = createMemoryLimitStore({ maxKeysPerTable: options.maxKeysPerTable, startMs: origin });

  const sql = {
    insertEvent: db.prepare('INSERT INTO limit_events (tbl, key, member, at_ms) VALUES (?, ?, ?, ?)'),
    deleteEvent: db.prepare('DELETE FROM limit_events WHERE id = ?'),
    eventsOf: db.prepare('SELECT key, member, at_ms FROM limit_events WHERE tbl = ? ORDER BY id'),
    pruneTable: db.prepare('DELETE FROM limit_events WHERE tbl = ? AND at_ms < ?'),
    pruneIdleKeys: db.prepare('DELETE FROM limit_events WHERE tbl = ? AND key IN (SELECT key FROM limit_events WHERE tbl = ? GROUP BY key HAVING MAX(at_ms) < ?)'),
    upsertInFlight: db.prepare(
      'INSERT INTO limit_in_flight (key, count, expires_ms) VALUES (?, ?, ?) ON CONFLICT (key) DO UPDATE SET count = excluded.count, expires_ms = excluded.expires_ms',
    ),
    deleteInFlight: db.prepare('DELETE FROM limit_in_flight WHERE key = ?'),
    pruneInFlight: db.prepare('DELETE FROM limit_in_flight WHERE expires_ms <= ?'),
  } satisfies Record<string, StatementSync>;

  // In-flight slots: the same semantics as the memory store's, kept here so they can be written.
  const inFlight = new Map<string, { count: number; expires: number }>();
  for (const row of db.prepare('SELECT key, count, expires_ms FROM limit_in_flight').all() as { key: string; count: number; expires_ms: number }[]) {
    inFlight.set(row.key, { count: row.count, expires: row.expires_ms });
  }

  const tables = new Map<string, TableInfo>();
  let pendingEvents: Pending[] = [];
  const dirtySlots = new Set<string>();
  let scheduled: Promise<void> | null = null;
  const timers = options.timers ?? realTimers;
  const batchDelayMs = options.batchDelayMs ?? 100;
  let batchTimer: unknown = null;

  function flush(): void {
    if (batchTimer !== null) {
      timers.clearTimeout(batchTimer);
      batchTimer = null;
    }
    if (pendingEvents.length === 0 && dirtySlots.size === 0) return;
    const events = pendingEvents;
    pendingEvents = [];
    transaction(db, () => {
      for (const e of events) e.rowIds.push(Number(sql.insertEvent.run(e.table, e.key, e.member, e.atMs).lastInsertRowid));
      for (const key of dirtySlots) {
        const held = inFlight.get(key);
        if (held) sql.upsertInFlight.run(key, held.count, held.expires);
        else sql.deleteInFlight.run(key);
      }
    });
    dirtySlots.clear();
  }

  /**
   * The commit at the end of this turn: every change queued in the turn goes in one transaction
   * (group commit: under load many accepted requests share one commit instead of paying one each).
   */
  function flushSoon(): Promise<void> {
    if (!scheduled) {
      scheduled = new Promise<void>((resolve, reject) => {
        setImmediate(() => {
          scheduled = null;
          try {
            flush();
            resolve();
          } catch (err) {
            reject(err);
          }
        });
      });
      // Callers that do not wait (strikes, slots) must not leave an unhandled rejection behind.
      scheduled.catch(() => {});
    }
    return scheduled;
  }

  /** The commit of changes nothing waits for: with the next urgent one, or `batchDelayMs` from now. */
  function flushLater(): void {
    if (batchTimer !== null || scheduled) return;
    batchTimer = timers.setTimeout(() => {
      batchTimer = null;
      // Nothing waits for this commit: if the file cannot take it, these strikes are lost, as
      // flushSoon's callers that do not wait lose theirs.
      try {
        flush();
      } catch {}
    }, batchDelayMs);
  }

  /** Replays a table's events into memory the first time it is used (with this use's rules). */
  function ready(check: LimitCheck): Promise<void> | undefined {
    const known = tables.get(check.table);
    if (known) return known.replayed;
    const windows = [...(check.counts ?? []).map((r) => r.windowSec), check.distinct?.windowSec ?? 0];
    const info: TableInfo = { longestMs: 2 * 1000 * Math.max(...windows), distinct: check.distinct !== undefined, replayed: undefined };
    tables.set(check.table, info);
    // Requests arriving while the replay runs wait for it (they share this promise).
    info.replayed = replay(check).finally(() => {
      info.replayed = undefined;
    });
    return info.replayed;
  }

  async function replay(check: LimitCheck): Promise<void> {
    for (const row of sql.eventsOf.all(check.table) as { key: string; member: string | null; at_ms: number }[]) {
      const replayed: LimitCheck = { table: check.table, key: row.key, ...(check.counts && { counts: check.counts }) };
      if (check.distinct && row.member !== null) replayed.distinct = { ...check.distinct, member: row.member };
      await memory.consume([replayed], row.at_ms);
    }
  }

  function prune(nowMs: number): number {
    flush();
    let deleted = 0;
    transaction(db, () => {
      for (const [table, info] of tables) {
        const cutoff = nowMs - info.longestMs;
        deleted += Number((info.distinct ? sql.pruneIdleKeys.run(table, table, cutoff) : sql.pruneTable.run(table, cutoff)).changes);
      }
      sql.pruneInFlight.run(nowMs);
    });
    return deleted;
  }

  const timer = options.pruneIntervalMs ? setInterval(() => prune(now()), options.pruneIntervalMs) : null;
  timer?.unref();

  return {
    async consume(checks, nowMs) {
      for (const check of checks) {
        const replaying = ready(check);
        if (replaying) await replaying;
      }
      const decision = await memory.consume(checks, nowMs);
      if (!decision.ok) return decision;
      const rowIds: number[] = [];
      const receipt: SqliteReceipt = { at: decision.receipt.at, entries: decision.receipt.entries, rowIds, refunded: false };
      let urgent = false;
      for (const check of checks) {
        pendingEvents.push({ table: check.table, key: check.key, member: check.distinct?.member ?? null, atMs: nowMs, rowIds });
        if (!batched.has(check.table)) urgent = true;
      }
      if (urgent) await flushSoon();
      else flushLater();
      return { ok: true, receipt };
    },

    // Not async: once the table is replayed, the memory store's own promise is the answer (the
    // hot path of a flood pays no extra promise).
    peek(check, nowMs) {
      const replaying = ready(check);
      return replaying ? replaying.then(() => memory.peek(check, nowMs)) : memory.peek(check, nowMs);
    },

    async refund(given) {
      await memory.refund(given);
      const receipt = given as SqliteReceipt;
      // Once only; and a receipt this store did not make has no rows here.
      if (receipt.refunded !== false) return;
      receipt.refunded = true;
      const { rowIds } = receipt;
      pendingEvents = pendingEvents.filter((e) => e.rowIds !== rowIds);
      transaction(db, () => {
        for (const id of rowIds) sql.deleteEvent.run(id);
      });
      flush();
    },

    async acquire(key, max, ttlMs, nowMs) {
      const held = inFlight.get(key);
      if (held && held.expires > nowMs && held.count >= max) return false;
      const count = held && held.expires > nowMs ? held.count + 1 : 1;
      inFlight.set(key, { count, expires: nowMs + ttlMs });
      dirtySlots.add(key);
      // Committed with the accepted request's counts (the consume right after), or, refused, later.
      flushLater();
      return true;
    },

    async release(key) {
      const held = inFlight.get(key);
      if (!held) return;
      if (held.count <= 1) inFlight.delete(key);
      else held.count--;
      dirtySlots.add(key);
      flushLater();
    },

    sizes() {
      return { ...memory.sizes(), in_flight: inFlight.size };
    },

    flush,
    prune,

    close() {
      if (timer) clearInterval(timer);
      flush();
    },
  };
}
