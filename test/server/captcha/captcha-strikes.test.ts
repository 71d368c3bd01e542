// A failed CAPTCHA is a refusal like any other: a strike against the client and its networks, so
// a bot sending bad tokens is cut off before its body is read, and Cloudflare's verify endpoint is
// asked at most LIMIT_CLIENT_REFUSALS times per client (LIMIT_NETWORK_REFUSALS per network), even
// when the tokens arrive all at once. With TURNSTILE_REQUIRED=surge the CAPTCHA is required only
// while the site surges. Over real sockets, with a local fake siteverify endpoint.
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { createServer } from 'node:http';
import { listen, type Listening } from '../../support/listen.ts';
import { ORIGIN, postCallback } from '../../support/post-callback.ts';
import { callbackCalls, QUICK_CALLS, systemPerTest } from '../../support/system.ts';

const SECRET = '0x4AAAAAAAfakeSecret';

/** Tokens the fake Cloudflare accepts (solved on ORIGIN's host); everything else fails. */
const good = new Set<string>();
let verifyCalls = 0;
let down = false;
let fake: Listening;
beforeAll(async () => {
  fake = await listen(
    createServer((req, res) => {
      let body = '';
      req.on('data', (c) => (body += c));
      req.on('end', () => {
        verifyCalls++;
        if (down) return res.writeHead(502).end();
        const token = new URLSearchParams(body).get('response') ?? '';
        res.writeHead(200, { 'content-type': 'application/json' });
        res.end(JSON.stringify(good.delete(token) ? { success: true, hostname: 'shop.example' } : { success: false, 'error-codes': ['invalid-input-response'] }));
      });
    }),
  );
});
afterAll(() => fake.close());
beforeEach(() => {
  verifyCalls = 0;
  down = false;
});

let clock = 0;
const start = systemPerTest(
  { ALLOWED_ORIGINS: ORIGIN, TRUSTED_PROXIES: '127.0.0.1', TURNSTILE_SECRET: SECRET },
  { simulator: { timing: QUICK_CALLS }, now: () => new Date(clock) },
);
const startAt = (env: Record<string, string> = {}) => {
  clock = Date.now();
  return start({ TURNSTILE_VERIFY_URL: `${fake.url}/siteverify`, ...env });
};

let numbers = 0;
const freshPhone = () => `+38050${100 + (numbers++ % 900)}4567`;

describe('failed CAPTCHAs cost the client', () => {
  it('bad tokens from one address: Cloudflare is asked LIMIT_CLIENT_REFUSALS (20) times, then the client is refused before its body is read', async () => {
    const s = await startAt();
    const answers = [];
    for (let i = 0; i < 200; i++) answers.push(await postCallback(s, { phone: freshPhone(), turnstileToken: `bad-${i}` }, { forwardedFor: '198.51.100.7' }));
    expect(answers.slice(0, 20).every((a) => a.status === 403 && a.code === 'captcha_failed')).toBe(true);
    expect(answers.slice(20).every((a) => a.status === 429 && a.code === 'rate_limited')).toBe(true);
    expect(verifyCalls).toBe(20);
    // Body unread: even garbage is refused as the client's.
    expect(await postCallback(s, 'not json', { forwardedFor: '198.51.100.7' })).toMatchObject({ status: 429, json: { error: { message: expect.stringMatching(/refused/) } } });
    // Another visitor with a good token is served.
    good.add('ok-1');
    expect(await postCallback(s, { phone: freshPhone(), turnstileToken: 'ok-1' }, { forwardedFor: '203.0.113.5' })).toMatchObject({ status: 202 });
    expect(callbackCalls(s)).toHaveLength(1);
  });

  it('missing and replayed tokens are strikes too, though Cloudflare is not asked for them', async () => {
    const s = await startAt({ LIMIT_CLIENT_REFUSALS: '3' });
    good.add('once');
    expect(await postCallback(s, { phone: freshPhone(), turnstileToken: 'once' }, { forwardedFor: '198.51.100.8' })).toMatchObject({ status: 202 });
    expect(await postCallback(s, { phone: freshPhone(), turnstileToken: 'once' }, { forwardedFor: '198.51.100.8' })).toMatchObject({ status: 403, code: 'captcha_failed' });
    expect(await postCallback(s, { phone: freshPhone() }, { forwardedFor: '198.51.100.8' })).toMatchObject({ status: 400, code: 'captcha_required' });
    expect(await postCallback(s, { phone: freshPhone() }, { forwardedFor: '198.51.100.8' })).toMatchObject({ status: 400, code: 'captcha_required' });
    expect(await postCallback(s, 'not json', { forwardedFor: '198.51.100.8' })).toMatchObject({ status: 429, code: 'rate_limited' });
    expect(verifyCalls).toBe(1);
  });

  it('a token that passes, or a Cloudflare that cannot be asked, costs the client nothing', async () => {
    const s = await startAt({ LIMIT_CLIENT_REFUSALS: '2', LIMIT_CLIENT_RATE: '8', LIMIT_CLIENT_NUMBERS_DAILY: '8' });
    down = true;
    for (let i = 0; i < 4; i++)
      expect(await postCallback(s, { phone: freshPhone(), turnstileToken: `t-${i}` }, { forwardedFor: '198.51.100.9' })).toMatchObject({
        status: 503,
        code: 'temporarily_unavailable',
      });
    down = false;
    for (let i = 0; i < 4; i++) {
      good.add(`g-${i}`);
      expect(await postCallback(s, { phone: freshPhone(), turnstileToken: `g-${i}` }, { forwardedFor: '198.51.100.9' })).toMatchObject({ status: 202 });
    }
  });

  it('a token Cloudflare could not judge is not spent: the retry with it is verified, not refused as a replay', async () => {
    const s = await startAt();
    good.add('retry-me');
    down = true;
    expect(await postCallback(s, { phone: freshPhone(), turnstileToken: 'retry-me' }, { forwardedFor: '198.51.100.11' })).toMatchObject({
      status: 503,
      code: 'temporarily_unavailable',
    });
    down = false;
    expect(await postCallback(s, { phone: freshPhone(), turnstileToken: 'retry-me' }, { forwardedFor: '198.51.100.11' })).toMatchObject({ status: 202 });
    expect(verifyCalls).toBe(2);
  });

  it('bad tokens sent all at once: no more reach Cloudflare than the strike limit', async () => {
    const s = await startAt({ LIMIT_CLIENT_REFUSALS: '5' });
    const answers = await Promise.all(
      Array.from({ length: 60 }, (_, i) => postCallback(s, { phone: freshPhone(), turnstileToken: `burst-${i}` }, { forwardedFor: '198.51.100.10' })),
    );
    expect(verifyCalls).toBeLessThanOrEqual(5);
    expect(answers.filter((a) => a.code === 'captcha_failed').length).toBe(verifyCalls);
    expect(answers.filter((a) => a.status === 429)).toHaveLength(60 - verifyCalls);
  });

  it('a bot rotating addresses of one /24 is cut off by the network strike limit (LIMIT_NETWORK_REFUSALS)', async () => {
    const s = await startAt({ LIMIT_NETWORK_REFUSALS: '10' });
    for (let i = 0; i < 40; i++) await postCallback(s, { phone: freshPhone(), turnstileToken: `rot-${i}` }, { forwardedFor: `198.51.100.${i}` });
    expect(verifyCalls).toBe(10);
    expect(await postCallback(s, 'not json', { forwardedFor: '198.51.100.200' })).toMatchObject({
      status: 429,
      json: { error: { message: expect.stringMatching(/your network/) } },
    });
    // Another network is untouched.
    good.add('ok-2');
    expect(await postCallback(s, { phone: freshPhone(), turnstileToken: 'ok-2' }, { forwardedFor: '203.0.113.5' })).toMatchObject({ status: 202 });
  });
});

describe('strikes are a cost, never a limit of their own', () => {
  it("with the strike tables full of a flood's keys, a new visitor's CAPTCHA is still checked and the call placed", async () => {
    const s = await startAt({ LIMITER_MAX_KEYS: '1000' });
    for (let i = 0; i < 1000; i++) await postCallback(s, { phone: freshPhone(), turnstileToken: `flood-${i}` }, { forwardedFor: `10.${i >> 8}.${i & 255}.1` });
    expect((await (await fetch(`${s.relayUrl}/metrics`)).text()).match(/dialback_limiter_keys\{table="client_refusals"\} (\d+)/)?.[1]).toBe('1000');
    good.add('ok-4');
    expect(await postCallback(s, { phone: freshPhone(), turnstileToken: 'ok-4' }, { forwardedFor: '203.0.113.5' })).toMatchObject({ status: 202 });
  });
});

describe('TURNSTILE_REQUIRED=surge', () => {
  it('needs no token until the site surges; then everyone needs one', async () => {
    const s = await startAt({ TURNSTILE_REQUIRED: 'surge', SURGE_CALLS: '3' });
    for (const client of ['198.51.100.1', '203.0.113.1', '192.0.2.1'])
      expect(await postCallback(s, { phone: freshPhone() }, { forwardedFor: client })).toMatchObject({ status: 202 });
    expect(verifyCalls).toBe(0);
    // Three calls in five minutes: a surge. A visitor from a fourth network now needs a token…
    expect(await postCallback(s, { phone: freshPhone() }, { forwardedFor: '2001:db8:9::1' })).toMatchObject({ status: 400, code: 'captcha_required' });
    good.add('ok-3');
    expect(await postCallback(s, { phone: freshPhone(), turnstileToken: 'ok-3' }, { forwardedFor: '2001:db8:9::1' })).toMatchObject({ status: 202 });
    // …until the surge is over.
    clock += 301_000;
    expect(await postCallback(s, { phone: freshPhone() }, { forwardedFor: '2001:db8:10::1' })).toMatchObject({ status: 202 });
  });

  it('a flood too slow for the fast trigger surges at half the hourly cap, before the breaker: tokenless calls stop there', async () => {
    const s = await startAt({ TURNSTILE_REQUIRED: 'surge' });
    // A call every 20 s, each from a fresh /48: 15 in 5 minutes, under SURGE_CALLS (20), yet a
    // pace that reaches SITE_HOURLY_CAP (100) in 33 minutes.
    const statuses = [];
    for (let i = 0; i < 100; i++) {
      clock += 20_000;
      statuses.push((await postCallback(s, { phone: freshPhone() }, { forwardedFor: `2001:db8:${1000 + i}::1` })).status);
    }
    expect(statuses.filter((x) => x === 202)).toHaveLength(50);
    expect(statuses.slice(50).every((x) => x === 400)).toBe(true);
    good.add('ok-5');
    expect(await postCallback(s, { phone: freshPhone(), turnstileToken: 'ok-5' }, { forwardedFor: '203.0.113.5' })).toMatchObject({ status: 202 });
    expect(s.logs.some((l) => String(l.msg).startsWith('ALERT site callback cap'))).toBe(false);
  });
});
