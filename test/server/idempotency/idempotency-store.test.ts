import { describe, expect, it } from 'vitest';
import { createMemoryIdempotencyStore as createIdempotencyStore } from '../../../server/src/idempotency/memory-store.ts';
import { RelayError } from '../../../server/src/contract/errors.ts';

const code = async (f: () => Promise<unknown>) => {
  try {
    await f();
    return 'ok';
  } catch (err) {
    return err instanceof RelayError ? err.code : String(err);
  }
};
const reply = { status: 202, body: { status: 'accepted' }, headers: {} };

describe('idempotency store', async () => {
  it('replays a finished request, refuses a running one and another body under the same key', async () => {
    const store = createIdempotencyStore({ ttlSec: 60, maxKeys: 100 });
    const first = await store.begin('https://a.example', 'k1', 'f1');
    expect(first.kind).toBe('new');
    expect(await code(() => store.begin('https://a.example', 'k1', 'f1'))).toBe('idempotency_in_progress');
    if (first.kind === 'new') await first.ticket.complete(reply);
    const again = await store.begin('https://a.example', 'k1', 'f1');
    expect(again).toEqual({ kind: 'replay', reply: { status: 202, body: { status: 'accepted' }, headers: { 'idempotent-replayed': 'true' } } });
    expect(await code(() => store.begin('https://a.example', 'k1', 'f2'))).toBe('idempotency_key_reused');
    expect((await store.begin('https://b.example', 'k1', 'f2')).kind).toBe('new'); // keys are per site
  });

  it('forgets a key after its time to live, however seldom it is asked', async () => {
    let now = 0;
    const store = createIdempotencyStore({ ttlSec: 60, maxKeys: 100, now: () => now });
    const first = await store.begin('s', 'k', 'f');
    if (first.kind === 'new') await first.ticket.complete(reply);
    now = 59_999;
    expect((await store.begin('s', 'k', 'f')).kind).toBe('replay');
    now = 60_001;
    expect((await store.begin('s', 'k', 'f')).kind).toBe('new');
    for (let i = 0; i < 50; i++) await store.begin('s', `other${i}`, 'f');
    now = 200_000;
    await store.begin('s', 'late', 'f');
    expect(await store.size()).toBe(1);
  });

  it('stays within IDEMPOTENCY_MAX_KEYS: finished entries make room, running ones never do (fail closed)', async () => {
    let now = 0;
    const store = createIdempotencyStore({ ttlSec: 60, maxKeys: 100, now: () => now });
    const tickets = [];
    for (let i = 0; i < 100; i++) {
      const b = await store.begin('s', `k${i}`, 'f');
      if (b.kind === 'new') tickets.push(b.ticket);
    }
    expect(await code(() => store.begin('s', 'one-more', 'f'))).toBe('temporarily_unavailable');
    for (const t of tickets.slice(0, 10)) await t.complete(reply);
    for (let i = 0; i < 500; i++) {
      const b = await store.begin('s', `n${i}`, 'f');
      if (b.kind === 'new') await b.ticket.complete(reply);
      expect(await store.size()).toBeLessThanOrEqual(100);
    }
    // Running entries were never evicted: their repeats are still refused as in progress.
    expect(await code(() => store.begin('s', 'k50', 'f'))).toBe('idempotency_in_progress');
    // Once expired, even running entries stop holding places.
    now = 61_000;
    expect((await store.begin('s', 'after', 'f')).kind).toBe('new');
  });
});
