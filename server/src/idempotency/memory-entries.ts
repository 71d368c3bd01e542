// Idempotency-Key for POST /api/callback: a request repeated with the same key (a double click, a
// retry after a dropped connection) gets the first request's answer and never places a second
// call. Keys are scoped by site, and bound to a fingerprint of the request, so the same key with
// another body is refused (422) rather than answered with someone else's outcome; a duplicate that
// arrives while the first is still running is refused with 409 (the widget waits and asks again).
//
// Only outcomes of a request that reached the service are remembered. A request refused before
// that (a limit, the CAPTCHA) forgets its key, so the visitor may retry with it once allowed.
// Memory is bounded: entries expire after IDEMPOTENCY_TTL_SECONDS, and at IDEMPOTENCY_MAX_KEYS the
// oldest finished entries make room (pending ones never do; if all are pending, the request is
// refused: fail closed).
import { createHash } from 'node:crypto';
import { RelayError } from '../errors.ts';
import type { Answer } from '../answer.ts';

export interface StoredReply {
  status: number;
  body: unknown;
  headers: Record<string, string>;
}

export type Begin = { kind: 'new'; ticket: IdempotencyTicket } | { kind: 'replay'; reply: Answer };

export interface IdempotencyTicket {
  /** Remember this outcome for repeats of the request. */
  complete(reply: Answer): void;
  /** Forget the key: the request did nothing a repeat could duplicate. */
  abandon(): void;
}

export interface IdempotencyStore {
  begin(scope: string, key: string, fingerprint: string): Begin;
  /** Whether a live entry (running or finished) holds this key: read-only. */
  has(scope: string, key: string): boolean;
  readonly size: number;
}

interface Entry {
  fingerprint: string;
  expires: number;
  reply: StoredReply | null;
}

/** Printable ASCII without spaces, 1–255 characters (UUIDs, ULIDs and the like). */
const KEY_PATTERN = /^[\x21-\x7e]{1,255}$/;

/** The Idempotency-Key header, validated; undefined when absent. */
export function readIdempotencyKey(value: string | string[] | undefined): string | undefined {
  if (value === undefined) return undefined;
  const key = Array.isArray(value) ? value[0] : value;
  if (key === undefined || !KEY_PATTERN.test(key) || (Array.isArray(value) && value.length > 1)) {
    throw new RelayError('invalid_request', 'The Idempotency-Key header must be 1 to 255 visible ASCII characters, sent once.', { field: 'Idempotency-Key' });
  }
  return key;
}

/** A stable fingerprint of what a request asks for. */
export function requestFingerprint(value: unknown): string {
  return createHash('sha256').update(canonicalJson(value)).digest('base64url');
}

function canonicalJson(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonicalJson).join(',')}]`;
  if (value && typeof value === 'object') {
    const entries = Object.entries(value as Record<string, unknown>)
      .filter(([, v]) => v !== undefined)
      .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
    return `{${entries.map(([k, v]) => `${JSON.stringify(k)}:${canonicalJson(v)}`).join(',')}}`;
  }
  return JSON.stringify(value) ?? 'null';
}

export function createIdempotencyStore(options: { ttlSec: number; maxKeys: number; now?: () => number }): IdempotencyStore {
  const now = options.now ?? Date.now;
  const ttlMs = options.ttlSec * 1000;
  // Map order is insertion order, so the first entries are the oldest.
  const entries = new Map<string, Entry>();
  /** How far to look for a finished entry to evict before giving up (pending entries stay). */
  const EVICTION_SCAN = 1000;
  /** Finished entries evicted in one walk when full: walks are then rare (see below). */
  const EVICTION_BATCH = Math.max(1, Math.floor(options.maxKeys / 100));
  // A walk from the oldest entry also steps over every deleted entry V8 keeps in the table until
  // it rebuilds it; walking on every request would cost ~6 us at 10,000 entries and grow with
  // them. So expiry walks at most once per EXPIRY_WALK_MS (lookups ignore expired entries
  // meanwhile), and a full store evicts a batch at once.
  const EXPIRY_WALK_MS = Math.min(60_000, Math.max(1, Math.floor(ttlMs / 100)));
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
      if (e.reply) {
        entries.delete(k);
        if (++evicted >= EVICTION_BATCH) break;
      }
      if (++scanned >= EVICTION_SCAN) break;
    }
    return evicted > 0;
  }

  const idOf = (scope: string, key: string) => createHash('sha256').update(`${scope}\0${key}`).digest('base64url');

  return {
    has(scope, key) {
      const found = entries.get(idOf(scope, key));
      return found !== undefined && found.expires > now();
    },
    begin(scope, key, fingerprint) {
      const at = now();
      expireOld(at);
      const id = idOf(scope, key);
      const found = entries.get(id);
      if (found && found.expires > at) {
        if (found.fingerprint !== fingerprint) {
          throw new RelayError('idempotency_key_reused', 'This Idempotency-Key was already used for a different request. Use a new key for a new request.', {
            field: 'Idempotency-Key',
          });
        }
        if (!found.reply) {
          throw new RelayError('idempotency_in_progress', 'The same request is still being processed. Please wait a moment.', { retryAfter: 1 });
        }
        const r = found.reply;
        return { kind: 'replay', reply: { status: r.status, body: r.body, headers: { ...r.headers, 'idempotent-replayed': 'true' } } };
      }
      if (found) entries.delete(id);
      if (!makeRoom(at)) {
        throw new RelayError('temporarily_unavailable', 'The callback service is too busy right now. Please try again in a minute.', { retryAfter: 30 });
      }
      const entry: Entry = { fingerprint, expires: at + ttlMs, reply: null };
      entries.set(id, entry);
      let settled = false;
      return {
        kind: 'new',
        ticket: {
          complete(reply) {
            if (settled) return;
            settled = true;
            const headers: Record<string, string> = {};
            for (const [k, v] of Object.entries(reply.headers ?? {})) headers[k] = String(v);
            entry.reply = { status: reply.status, body: reply.body, headers };
          },
          abandon() {
            if (settled) return;
            settled = true;
            if (entries.get(id) === entry) entries.delete(id);
          },
        },
      };
    },
    get size() {
      return entries.size;
    },
  };
}
