import { describe, expect, it } from 'vitest';
import { createIdempotencyStore } from '../../../server/src/idempotency/memory-entries.ts';
import { RelayError } from '../../../server/src/errors.ts';

const code = (f: () => unknown) => {
  try {
    f();
    return 'ok';
  } catch (err) {
    return err instanceof RelayError ? err.code : String(err);
  }
};
const reply = { status: 202, body: { status: 'accepted' }, headers: {} };

describe('idempotency store', () => {
  it('replays a finished request, refuses a running one and another body under the same key', () => {
    const store = createIdempotencyStore({ ttlSec: 60, maxKeys: 100 });
    const first = store.begin('https://a.example', 'k1', 'f1');
    expect(first.kind).toBe('new');
    expect(code(() => store.begin('https://a.example', 'k1', 'f1'))).toBe('idempotency_in_progress');
    if (first.kind === 'new') first.ticket.complete(reply);
    const again = store.begin('https://a.example', 'k1', 'f1');
    expect(again).toEqual({ kind: 'replay', reply: { status: 202, body: { status: 'accepted' }, headers: { 'idempotent-replayed': 'true' } } });
    expect(code(() => store.begin('https://a.example', 'k1', 'f2'))).toBe('idempotency_key_reused');
    expect(store.begin('https://b.example', 'k1', 'f2').kind).toBe('new'); // keys are per site
  });

  it('forgets a key after its time to live, however seldom it is asked', () => {
    let now = 0;
    const store = createIdempotencyStore({ ttlSec: 60, maxKeys: 100, now: () => now });
    const first = store.begin('s', 'k', 'f');
    if (first.kind === 'new') first.ticket.complete(reply);
    now = 59_999;
    expect(store.begin('s', 'k', 'f').kind).toBe('replay');
    now = 60_001;
    expect(store.begin('s', 'k', 'f').kind).toBe('new');
    for (let i = 0; i < 50; i++) store.begin('s', `other${i}`, 'f');
    now = 200_000;
    store.begin('s', 'late', 'f');
    expect(store.size).toBe(1);
  });

  it('stays within IDEMPOTENCY_MAX_KEYS: finished entries make room, running ones never do (fail closed)', () => {
    let now = 0;
    const store = createIdempotencyStore({ ttlSec: 60, maxKeys: 100, now: () => now });
    const tickets = [];
    for (let i = 0; i < 100; i++) {
      const b = store.begin('s', `k${i}`, 'f');
      if (b.kind === 'new') tickets.push(b.ticket);
    }
    expect(code(() => store.begin('s', 'one-more', 'f'))).toBe('temporarily_unavailable');
    for (const t of tickets.slice(0, 10)) t.complete(reply);
    for (let i = 0; i < 500; i++) {
      const b = store.begin('s', `n${i}`, 'f');
      if (b.kind === 'new') b.ticket.complete(reply);
      expect(store.size).toBeLessThanOrEqual(100);
    }
    // Running entries were never evicted: their repeats are still refused as in progress.
    expect(code(() => store.begin('s', 'k50', 'f'))).toBe('idempotency_in_progress');
    // Once expired, even running entries stop holding places.
    now = 61_000;
    expect(store.begin('s', 'after', 'f').kind).toBe('new');
  });
});
