// Idempotency-Key records: a request repeated with the same key gets the first request's answer and
// never places a second call. `begin` replays the first answer or hands out a ticket, `complete`
// remembers the answer, `abandon` forgets the key; memory, SQLite and Redis keep the same semantics.
// A running key stays "in progress" until its TTL, even after a crash. The rules: idempotency/README.md.
import { createHash, createHmac, createSecretKey } from 'node:crypto';
import { RelayError } from '../contract/errors.ts';
import type { Answer } from '../contract/answer.ts';

export interface IdempotencyTicket {
  /** Remember this outcome for repeats of the request (its body must be JSON). */
  complete(reply: Answer): Promise<void>;
  /** Forget the key: the request did nothing a repeat could duplicate. */
  abandon(): Promise<void>;
}

export type IdempotencyBegin = { kind: 'new'; ticket: IdempotencyTicket } | { kind: 'replay'; reply: Answer };

export interface IdempotencyStore {
  /** Throws RelayError idempotency_key_reused, idempotency_in_progress or temporarily_unavailable. */
  begin(scope: string, key: string, fingerprint: string): Promise<IdempotencyBegin>;
  /** Whether a live entry (running or finished) holds this key: read-only. */
  has(scope: string, key: string): Promise<boolean>;
  /** Entries held (for /metrics). */
  size(): Promise<number>;
  /**
   * Forgets the finished answers of these requests (their `requestId`): a visitor's number erased
   * on request takes them along, as each holds the request's id beside the masked number. Running
   * entries stay (they hold neither, and a repeat must not ring twice). Answers how many went.
   */
  forgetAnswers(requestIds: ReadonlySet<string>): Promise<number>;
}

/** The request an answer as stored (storedReply's JSON) is about; null when it names none. */
export function requestIdOf(reply: Answer): string | null {
  const body = reply.body as { requestId?: unknown } | undefined;
  return typeof body?.requestId === 'string' ? body.requestId : null;
}

export interface IdempotencyStoreOptions {
  ttlSec: number;
  maxKeys: number;
  now?: () => number;
}

export const idempotencyErrors = {
  reused: () =>
    new RelayError('idempotency_key_reused', 'This Idempotency-Key was already used for a different request. Use a new key for a new request.', { field: 'Idempotency-Key' }),
  inProgress: () => new RelayError('idempotency_in_progress', 'The same request is still being processed. Please wait a moment.', { retryAfter: 1 }),
  full: () => new RelayError('temporarily_unavailable', 'The callback service is too busy right now. Please try again in a minute.', { retryAfter: 30 }),
};

/**
 * How the stored stores (SQLite, Redis) name and compare entries: an entry's id is a hash of its
 * scope (the site) and key, and its fingerprint is kept only as a keyed hash (HMAC with
 * HASH_SECRET), so the store holds no request body. At the key limit they evict finished entries
 * a hundredth of the limit at a time.
 */
export function storedEntries(options: IdempotencyStoreOptions & { hashSecret: string }) {
  const secret = createSecretKey(options.hashSecret, 'utf8');
  return {
    idOf: (scope: string, key: string) => createHash('sha256').update(`${scope}\0${key}`).digest('base64url'),
    keyed: (fingerprint: string) => createHmac('sha256', secret).update(fingerprint).digest('base64url'),
    now: options.now ?? Date.now,
    ttlMs: options.ttlSec * 1000,
    evictionBatch: Math.max(1, Math.floor(options.maxKeys / 100)),
  };
}

/** A ticket settled once: whichever of complete and abandon comes first is done, the rest ignored. */
export function onceTicket(complete: (answer: Answer) => Promise<void>, abandon: () => Promise<void>): IdempotencyTicket {
  let settled = false;
  const once =
    <A extends unknown[]>(step: (...args: A) => Promise<void>) =>
    async (...args: A) => {
      if (settled) return;
      settled = true;
      await step(...args);
    };
  return { complete: once(complete), abandon: once(abandon) };
}

/** An answer as the store keeps it: JSON, its headers as strings. */
export function storedReply(reply: Answer): string {
  const headers: Record<string, string> = {};
  for (const [name, value] of Object.entries(reply.headers ?? {})) headers[name] = String(value);
  return JSON.stringify({ status: reply.status, body: reply.body, headers });
}

/** A stored answer as a repeat receives it. */
export function replayed(reply: Answer): Answer {
  return { status: reply.status, body: reply.body, headers: { ...reply.headers, 'idempotent-replayed': 'true' } };
}
