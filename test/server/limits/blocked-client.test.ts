// A client already over its rate or daily limit is refused before its body is read: a flood is
// answered 429 whatever it sends, counting nothing more; a client that is not blocked is answered
// as before (a bad body is still a 400 that counts nothing). Over real sockets, with keep-alive.
import { afterEach, describe, expect, it } from 'vitest';
import { Pool } from 'undici';
import { ORIGIN, postCallback } from '../../support/post-callback.ts';
import { callbackCalls, errorOf, QUICK_CALLS, systemPerTest, type System } from '../../support/system.ts';

/** The relay's clock: the wall clock, unless a test holds it (and then moves it itself). */
let held: number | null = null;
const start = systemPerTest(
  { ALLOWED_ORIGINS: ORIGIN, UPSTREAM_TIMEOUT_MS: '2000', TRUSTED_PROXIES: '127.0.0.1', LIMIT_CLIENT_RATE: '2', LIMIT_CLIENT_NUMBERS_DAILY: '10' },
  { simulator: { timing: QUICK_CALLS }, now: () => new Date(held ?? Date.now()) },
);
afterEach(() => {
  held = null;
});

const CLIENT = '198.51.100.7';
const phone = (i: number) => `+38050${100 + i}4567`;

/** Uses up CLIENT's rate limit (2) with two accepted calls. */
async function block(s: System): Promise<void> {
  for (const i of [1, 2]) expect((await postCallback(s, { phone: phone(i) }, { forwardedFor: CLIENT })).status).toBe(202);
  expect(callbackCalls(s)).toHaveLength(2);
}

const metricsText = async (s: System) => (await fetch(`${s.relayUrl}/metrics`)).text();

describe('a client over its limit is refused before its body is read', () => {
  it('answers 429 rate_limited with Retry-After to a blocked client, whatever its body (invalid JSON, wrong fields, none)', async () => {
    const s = await start();
    await block(s);
    for (const body of ['not json', '{"phone": 12}', '{}', '']) {
      const refused = await errorOf(await postCallback(s, body, { forwardedFor: CLIENT }));
      expect(refused).toMatchObject({ status: 429, code: 'rate_limited' });
      expect(refused.retryAfter).toBeGreaterThan(0);
      expect(refused.retryAfter).toBeLessThanOrEqual(600);
      expect(refused.bodyRetryAfter).toBe(refused.retryAfter);
    }
    // A wrong content type is not even looked at.
    expect((await postCallback(s, 'phone=1', { forwardedFor: CLIENT, headers: { 'content-type': 'text/plain' } })).status).toBe(429);
    expect(callbackCalls(s)).toHaveLength(2);
    expect(await metricsText(s)).toMatch(/dialback_limiter_refusals_total\{reason="client_rate"\} 5\n/);
    // Another client is untouched.
    expect((await postCallback(s, 'not json', { forwardedFor: '198.51.100.8' })).status).toBe(400);
    expect((await postCallback(s, { phone: phone(3) }, { forwardedFor: '198.51.100.8' })).status).toBe(202);
  });

  it('blocks an IPv6 client by its /64, before reading the body', async () => {
    const s = await start();
    for (const i of [1, 2]) expect((await postCallback(s, { phone: phone(i) }, { forwardedFor: `2001:db8:5:5::${i}` })).status).toBe(202);
    expect((await errorOf(await postCallback(s, 'not json', { forwardedFor: '2001:db8:5:5::beef' }))).code).toBe('rate_limited');
    expect((await postCallback(s, 'not json', { forwardedFor: '2001:db8:5:6::1' })).status).toBe(400);
  });

  it('still checks the origin first: a foreign origin is refused as such, blocked or not', async () => {
    const s = await start();
    await block(s);
    const res = await postCallback(s, 'not json', { forwardedFor: CLIENT, origin: 'https://evil.example' });
    expect(res.status).toBe(403);
  });

  it('a client that is not blocked gets 400 for a bad body, and the refusal counts nothing', async () => {
    const s = await start();
    for (let i = 0; i < 5; i++) expect((await errorOf(await postCallback(s, '{"phone": 12}', { forwardedFor: CLIENT }))).status).toBe(400);
    for (let i = 0; i < 5; i++) expect((await postCallback(s, 'nope', { forwardedFor: CLIENT })).status).toBe(400);
    // The whole rate (2) is still there.
    for (const i of [1, 2]) expect((await postCallback(s, { phone: phone(i) }, { forwardedFor: CLIENT })).status).toBe(202);
    expect((await postCallback(s, { phone: phone(3) }, { forwardedFor: CLIENT })).status).toBe(429);
  });

  it('an early refusal counts nothing either: once the window has room the client is served again', async () => {
    held = Date.now();
    const s = await start({ LIMIT_CLIENT_RATE_WINDOW_SECONDS: '1', LIMIT_NUMBER_COOLDOWN_SECONDS: '0' });
    await block(s);
    // Half a window later (the relay's clock moves only here, however slow the machine): refused.
    held += 500;
    for (let i = 0; i < 20; i++) expect((await postCallback(s, 'not json', { forwardedFor: CLIENT })).status).toBe(429);
    // The log keeps the two accepted timestamps only: once they are a window old the client is
    // served, while refusals counted half a window ago would still hold it back.
    held += 500;
    expect((await postCallback(s, 'not json', { forwardedFor: CLIENT })).status).toBe(400);
    expect((await postCallback(s, { phone: phone(3) }, { forwardedFor: CLIENT })).status).toBe(202);
  });

  it('a repeat of an accepted request with its Idempotency-Key still gets the first answer', async () => {
    const s = await start();
    const first = await postCallback(s, { phone: phone(1) }, { forwardedFor: CLIENT, idempotencyKey: 'k-1' });
    expect(first.status).toBe(202);
    expect((await postCallback(s, { phone: phone(2) }, { forwardedFor: CLIENT })).status).toBe(202);
    // Now blocked: an unknown key is refused early, the known one replayed.
    expect((await postCallback(s, { phone: phone(3) }, { forwardedFor: CLIENT, idempotencyKey: 'k-2' })).status).toBe(429);
    const again = await postCallback(s, { phone: phone(1) }, { forwardedFor: CLIENT, idempotencyKey: 'k-1' });
    expect(again.status).toBe(202);
    expect(again.headers.get('idempotent-replayed')).toBe('true');
    expect(callbackCalls(s)).toHaveLength(2);
    // Only the refusal was counted, not the replay.
    expect(await metricsText(s)).toMatch(/dialback_limiter_refusals_total\{reason="client_rate"\} 1\n/);
  });

  it('keeps keep-alive connections usable: refusals in a row on one connection, then a served request', async () => {
    const s = await start();
    await block(s);
    let connections = 0;
    s.relay.server.on('connection', () => connections++);
    const pool = new Pool(s.relayUrl, { connections: 1, pipelining: 1 });
    try {
      const request = async (body: string, client = CLIENT) => {
        const res = await pool.request({
          path: '/api/callback',
          method: 'POST',
          headers: { 'content-type': 'application/json', origin: ORIGIN, 'x-forwarded-for': client },
          body,
        });
        const text = await res.body.text();
        return { status: res.statusCode, connection: res.headers.connection, text };
      };
      for (let i = 0; i < 10; i++) {
        const r = await request(i % 2 ? 'not json' : JSON.stringify({ phone: phone(i), pad: 'x'.repeat(3000) }));
        expect(r.status).toBe(429);
        expect(r.connection).not.toBe('close');
      }
      // The unread bodies were discarded, not taken for the next request.
      const served = await request(JSON.stringify({ phone: phone(20) }), '198.51.100.9');
      expect(served.status).toBe(202);
      expect(connections).toBe(1);
    } finally {
      await pool.close();
    }
  });

  it('closes the connection rather than read a body longer than the limit', async () => {
    const s = await start();
    await block(s);
    const pool = new Pool(s.relayUrl, { connections: 1 });
    try {
      const res = await pool.request({
        path: '/api/callback',
        method: 'POST',
        headers: { 'content-type': 'application/json', origin: ORIGIN, 'x-forwarded-for': CLIENT },
        body: 'x'.repeat(100_000),
      });
      await res.body.text();
      expect(res.statusCode).toBe(429);
      expect(res.headers.connection).toBe('close');
      // The pool opens a new connection and is served.
      const next = await pool.request({ path: '/api/status', method: 'GET', headers: { origin: ORIGIN } });
      await next.body.text();
      expect(next.statusCode).toBe(200);
    } finally {
      await pool.close();
    }
  });
});

describe('a client that keeps asking while refused is refused before its body is read', () => {
  it('after LIMIT_CLIENT_REFUSALS refusals by the limits, whatever it sends; other clients are untouched', async () => {
    const s = await start({ LIMIT_CLIENT_REFUSALS: '3' });
    // Refusals before the limits (bad bodies, bad numbers) are no strikes.
    for (let i = 0; i < 5; i++) expect((await postCallback(s, '{"phone": 12}', { forwardedFor: CLIENT })).status).toBe(400);
    expect((await postCallback(s, { phone: phone(1) }, { forwardedFor: CLIENT })).status).toBe(202);
    // A bot hammering the number on cooldown: three refusals, each after reading the body.
    for (let i = 0; i < 3; i++) {
      const res = await postCallback(s, { phone: phone(1) }, { forwardedFor: CLIENT });
      expect(res.status).toBe(429);
      expect(res.json.error!.message).toMatch(/moments ago/);
    }
    // The fourth request is refused as the client's, before its body is read (else: 400).
    const refused = await postCallback(s, 'not json', { forwardedFor: CLIENT });
    expect(refused.status).toBe(429);
    expect(refused.json.error).toMatchObject({ code: 'rate_limited', message: expect.stringMatching(/Too many refused/) });
    const wait = Number(refused.headers.get('retry-after'));
    expect(wait).toBeGreaterThan(0);
    expect(wait).toBeLessThanOrEqual(600);
    // Even a request that would be accepted: its client is blocked for the window.
    expect((await postCallback(s, { phone: phone(2) }, { forwardedFor: CLIENT })).status).toBe(429);
    expect(callbackCalls(s)).toHaveLength(1);
    const metrics = await metricsText(s);
    expect(metrics).toMatch(/dialback_limiter_refusals_total\{reason="number_cooldown"\} 3\n/);
    expect(metrics).toMatch(/dialback_limiter_refusals_total\{reason="client_refusals"\} 2\n/);
    expect(metrics).toMatch(/dialback_limiter_keys\{table="client_refusals"\} 1\n/);
    // Another client is served as before.
    expect((await postCallback(s, 'not json', { forwardedFor: '198.51.100.8' })).status).toBe(400);
    expect((await postCallback(s, { phone: phone(3) }, { forwardedFor: '198.51.100.8' })).status).toBe(202);
  });

  it('the strikes pass with the client-rate window', async () => {
    const s = await start({ LIMIT_CLIENT_REFUSALS: '2', LIMIT_CLIENT_RATE: '10', LIMIT_CLIENT_RATE_WINDOW_SECONDS: '1' });
    expect((await postCallback(s, { phone: phone(1) }, { forwardedFor: CLIENT })).status).toBe(202);
    for (let i = 0; i < 2; i++) expect((await postCallback(s, { phone: phone(1) }, { forwardedFor: CLIENT })).status).toBe(429);
    expect((await postCallback(s, 'not json', { forwardedFor: CLIENT })).status).toBe(429);
    let status = 429;
    for (let tries = 0; tries < 50 && status === 429; tries++) {
      await new Promise((r) => setTimeout(r, 100));
      status = (await postCallback(s, 'not json', { forwardedFor: CLIENT })).status;
    }
    expect(status).toBe(400);
  });

  it('a site cap reached is no strike against the client: the breaker is not its doing', async () => {
    const s = await start({ LIMIT_CLIENT_REFUSALS: '2', SITE_HOURLY_CAP: '1' });
    expect((await postCallback(s, { phone: phone(1) }, { forwardedFor: CLIENT })).status).toBe(202);
    for (const i of [2, 3, 4]) expect((await postCallback(s, { phone: phone(i) }, { forwardedFor: CLIENT })).status).toBe(503);
    expect((await postCallback(s, 'not json', { forwardedFor: CLIENT })).status).toBe(400);
  });
});

describe('a refusal by a limit is logged on the request line, once', () => {
  const linesOf = (s: System, requestId: string | null) => s.logs.filter((l) => l.requestId === requestId);

  it('an early refusal: one line, the request line, with the limit and the wait', async () => {
    const s = await start();
    await block(s);
    const res = await postCallback(s, 'not json', { forwardedFor: CLIENT });
    expect(res.status).toBe(429);
    const lines = linesOf(s, res.headers.get('x-request-id'));
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatchObject({
      msg: 'request',
      method: 'POST',
      path: '/api/callback',
      status: 429,
      refused: 'client_rate',
      retryAfter: Number(res.headers.get('retry-after')),
    });
  });

  it('a refusal after the body was read: one line with the limit, the wait and the masked number, never the full one', async () => {
    const s = await start();
    expect((await postCallback(s, { phone: '+380501112233' }, { forwardedFor: CLIENT })).status).toBe(202);
    const res = await postCallback(s, { phone: '+380501112233' }, { forwardedFor: '198.51.100.77' });
    expect(res.status).toBe(429);
    const lines = linesOf(s, res.headers.get('x-request-id'));
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatchObject({ msg: 'request', status: 429, refused: 'number_cooldown', retryAfter: Number(res.headers.get('retry-after')), phone: '+380*******33' });
    expect(s.rawLogs.join('\n')).not.toContain('380501112233');
    expect(s.logs.some((l) => l.msg === 'callback refused by a limit')).toBe(false);
  });
});
