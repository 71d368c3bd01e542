// The IdempotencyStore in memory, for tests and benchmarks (the relay's default is the SQLite store),
// with the stored ones' semantics (idempotency-store.ts), forgotten on restart. Bounded: entries
// expire, and a full store evicts its oldest finished entries in a batch; expiry walks at most once
// per EXPIRY_WALK_MS. Why not on every request: idempotency/README.md.
import type { Answer } from '../contract/answer.ts';
import { idempotencyErrors, onceTicket, replayed, requestIdOf, storedEntries, storedReply, type IdempotencyStore, type IdempotencyStoreOptions } from './idempotency-store.ts';

interface Entry {
  fingerprint: string;
  expires: number;
  answer: Answer | null;
}

/** How far to look for a finished entry to evict before giving up (running entries stay). */
const EVICTION_SCAN = 1000;

export function createMemoryIdempotencyStore(options: IdempotencyStoreOptions): IdempotencyStore {
  // No secret needed in memory: the fingerprint never leaves the process.
  const { idOf, now, ttlMs, evictionBatch } = storedEntries({ ...options, hashSecret: 'memory' });
  const EXPIRY_WALK_MS = Math.min(60_000, Math.max(1, Math.floor(ttlMs / 100)));
  // Map order is insertion order, so the first entries are the oldest.
  const entries = new Map<string, Entry>();
  let nextExpiryWalk = 0;

  function expireOld(at: number, force = false): void {
    if (!force && at < nextExpiryWalk) return;
    nextExpiryWalk = at + EXPIRY_WALK_MS;
    for (const [k, e] of entries) {
      if (e.expires > at) break;
      entries.delete(k);
    }
  }

  function makeRoom(at: number): boolean {
    if (entries.size < options.maxKeys) return true;
    expireOld(at, true);
    if (entries.size < options.maxKeys) return true;
    let scanned = 0;
    let evicted = 0;
    for (const [k, e] of entries) {
      if (e.answer) {
        entries.delete(k);
        if (++evicted >= evictionBatch) break;
      }
      if (++scanned >= EVICTION_SCAN) break;
    }
    return evicted > 0;
  }

  return {
    async has(scope, key) {
      const found = entries.get(idOf(scope, key));
      return found !== undefined && found.expires > now();
    },
    async begin(scope, key, fingerprint) {
      const at = now();
      expireOld(at);
      const id = idOf(scope, key);
      const found = entries.get(id);
      if (found && found.expires > at) {
        if (found.fingerprint !== fingerprint) throw idempotencyErrors.reused();
        if (!found.answer) throw idempotencyErrors.inProgress();
        return { kind: 'replay', reply: replayed(found.answer) };
      }
      if (found) entries.delete(id);
      if (!makeRoom(at)) throw idempotencyErrors.full();
      const entry: Entry = { fingerprint, expires: at + ttlMs, answer: null };
      entries.set(id, entry);
      return {
        kind: 'new',
        ticket: onceTicket(
          async (answer) => {
            // Kept as the stored stores keep it (JSON, headers as strings), so a replay is the same on every store.
            entry.answer = JSON.parse(storedReply(answer)) as Answer;
          },
          async () => {
            if (entries.get(id) === entry) entries.delete(id);
          },
        ),
      };
    },
    size: async () => entries.size,
    async forgetAnswers(requestIds) {
      let forgotten = 0;
      for (const [id, e] of entries) {
        const requestId = e.answer && requestIdOf(e.answer);
        if (requestId && requestIds.has(requestId)) forgotten += Number(entries.delete(id));
      }
      return forgotten;
    },
  };
}
