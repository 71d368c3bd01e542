// Idempotency-Key over real sockets: repeats get the first answer and never a second call, even
// a thousand at once; a key reused for another request is refused.
import { describe, expect, it } from 'vitest';
import { Pool } from 'undici';
import { ORIGIN, postCallback } from '../../support/post-callback.ts';
import { callbackCalls, QUICK_CALLS, systemPerTest } from '../../support/system.ts';

const start = systemPerTest({ ALLOWED_ORIGINS: ORIGIN, UPSTREAM_TIMEOUT_MS: '1000' }, { simulator: { timing: QUICK_CALLS } });

describe('Idempotency-Key', () => {
  it('answers a repeat with the first answer and places no second call', async () => {
    const s = await start();
    const first = await postCallback(s, { phone: '+380501234567', locale: 'uk' }, { idempotencyKey: 'key-1' });
    expect(first.status).toBe(202);
    const firstBody = first.json;
    // Same meaning, other key order: the same request.
    const again = await postCallback(s, { locale: 'uk', phone: '+380501234567' }, { idempotencyKey: 'key-1' });
    expect(again.status).toBe(202);
    expect(again.headers.get('idempotent-replayed')).toBe('true');
    expect(again.json).toEqual(firstBody);
    expect(callbackCalls(s)).toHaveLength(1);
  });

  it('refuses the same key with another body (422), and keys are per site', async () => {
    const s = await start({ ALLOWED_ORIGINS: `${ORIGIN},https://other.example` });
    expect((await postCallback(s, { phone: '+380501234567' }, { idempotencyKey: 'key-2' })).status).toBe(202);
    const other = await postCallback(s, { phone: '+380671234567' }, { idempotencyKey: 'key-2' });
    expect(other.status).toBe(422);
    expect(other.json.error!.code).toBe('idempotency_key_reused');
    const otherSite = await postCallback(s, { phone: '+380671234567' }, { idempotencyKey: 'key-2', origin: 'https://other.example' });
    expect(otherSite.status).toBe(202);
    expect(callbackCalls(s)).toHaveLength(2);
  });

  it('rejects a malformed key before doing anything', async () => {
    const s = await start();
    // Each kind goes on the wire as it is: a space, one character too many, nothing at all, and
    // non-ASCII (fetch sends each character of a header value as one byte: here the UTF-8 of "ключ").
    const malformed = ['has space', 'x'.repeat(256), '', Buffer.from('ключ').toString('latin1')];
    for (const key of malformed) {
      const res = await postCallback(s, '{"phone":"+380501234567"}', { idempotencyKey: key });
      expect(res.status, JSON.stringify(key)).toBe(400);
      expect(res.json.error).toMatchObject({ code: 'invalid_request', field: 'Idempotency-Key' });
    }
    expect(callbackCalls(s)).toHaveLength(0);
  });

  it('remembers a timeout too: the call may have been placed, so a repeat must not place another', async () => {
    const s = await start();
    s.sim.faults.set('callback', { kind: 'hang', times: 1 });
    const first = await postCallback(s, { phone: '+380501234567' }, { idempotencyKey: 'key-3' });
    expect(first.status).toBe(504);
    const again = await postCallback(s, { phone: '+380501234567' }, { idempotencyKey: 'key-3' });
    expect(again.status).toBe(504);
    expect(again.headers.get('idempotent-replayed')).toBe('true');
    expect(callbackCalls(s)).toHaveLength(1);
  });

  it('forgets a key whose request was refused before the service was asked, so it can be retried', async () => {
    const s = await start({ LIMIT_CLIENT_RATE: '1', LIMIT_CLIENT_RATE_WINDOW_SECONDS: '1' });
    expect((await postCallback(s, { phone: '+380501234567' }, { idempotencyKey: 'key-4' })).status).toBe(202);
    const limited = await postCallback(s, { phone: '+380671234567' }, { idempotencyKey: 'key-5' });
    expect(limited.status).toBe(429);
    await new Promise((r) => setTimeout(r, 1100));
    expect((await postCallback(s, { phone: '+380671234567' }, { idempotencyKey: 'key-5' })).status).toBe(202);
  });

  it('turns 1,000 parallel identical requests into exactly one call', async () => {
    const s = await start({ MAX_CONNECTIONS: '5000', MAX_CONNECTIONS_PER_CLIENT: '5000' });
    // The service is slow, so every duplicate arrives while the first is still in progress.
    s.sim.faults.set('callback', { kind: 'delay', ms: 400, times: 1 });
    const pool = new Pool(s.relayUrl, { connections: 250 });
    try {
      const body = JSON.stringify({ phone: '+380501234567', consent: true });
      const statuses = await Promise.all(
        Array.from({ length: 1000 }, async () => {
          const res = await pool.request({
            path: '/api/callback',
            method: 'POST',
            headers: { 'content-type': 'application/json', origin: ORIGIN, 'idempotency-key': 'same-key' },
            body,
          });
          await res.body.text();
          return res.statusCode;
        }),
      );
      const counts: Record<number, number> = {};
      for (const st of statuses) counts[st] = (counts[st] ?? 0) + 1;
      expect(counts[202]).toBeGreaterThanOrEqual(1);
      expect((counts[202] ?? 0) + (counts[409] ?? 0)).toBe(1000);
      expect(callbackCalls(s)).toHaveLength(1);
    } finally {
      await pool.close();
    }
  });
});
