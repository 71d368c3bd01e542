// Turnstile through a local fake siteverify endpoint (TURNSTILE_VERIFY_URL): required when
// configured, verified server-side, hostname checked, single use, fail closed.
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { createServer } from 'node:http';
import { listen, type Listening } from '../../support/listen.ts';
import { ORIGIN, postCallback } from '../../support/post-callback.ts';
import { callbackCalls, QUICK_CALLS, startSystem, type System } from '../../support/system.ts';

const SECRET = '0x4AAAAAAAfakeSecret';

/** Tokens the fake Cloudflare knows: token → hostname it was solved on. Each verifies once. */
const solved = new Map<string, string>();
let verifyCalls: Array<Record<string, string>> = [];
let mode: 'ok' | 'down' | 'garbage' = 'ok';
let fake: Listening;

beforeAll(async () => {
  fake = await listen(
    createServer((req, res) => {
      let body = '';
      req.on('data', (c) => (body += c));
      req.on('end', () => {
        const form = Object.fromEntries(new URLSearchParams(body));
        verifyCalls.push(form);
        if (mode === 'down') return res.writeHead(500).end('oops');
        if (mode === 'garbage') return res.writeHead(200, { 'content-type': 'text/html' }).end('<html>');
        const host = form.secret === SECRET ? solved.get(form.response ?? '') : undefined;
        if (host !== undefined) solved.delete(form.response!);
        res.writeHead(200, { 'content-type': 'application/json' });
        res.end(JSON.stringify(host !== undefined ? { success: true, hostname: host, 'error-codes': [] } : { success: false, 'error-codes': ['invalid-input-response'] }));
      });
    }),
  );
});
afterAll(() => fake.close());

let system: System | undefined;
afterEach(async () => {
  await system?.close();
  system = undefined;
  verifyCalls = [];
  mode = 'ok';
});

async function start(env: Record<string, string> = {}) {
  system = await startSystem(
    { ALLOWED_ORIGINS: ORIGIN, TURNSTILE_SECRET: SECRET, TURNSTILE_VERIFY_URL: `${fake.url}/siteverify`, LIMIT_CLIENT_RATE: '8', LIMIT_CLIENT_NUMBERS_DAILY: '8', ...env },
    { simulator: { timing: QUICK_CALLS } },
  );
  return system;
}

describe('Turnstile', () => {
  it('requires a token when TURNSTILE_SECRET is set', async () => {
    const s = await start();
    expect(await postCallback(s, { phone: '+380501234567' })).toMatchObject({ status: 400, code: 'captcha_required' });
    expect(callbackCalls(s)).toHaveLength(0);
  });

  it('accepts a valid token once, sending the secret and the visitor address to the verifier', async () => {
    const s = await start();
    solved.set('tok-1', 'shop.example');
    expect(await postCallback(s, { phone: '+380501234567', turnstileToken: 'tok-1' })).toMatchObject({ status: 202, code: undefined });
    expect(verifyCalls).toEqual([{ secret: SECRET, response: 'tok-1', remoteip: '127.0.0.1' }]);
    // Replayed: refused locally without asking Cloudflare again.
    expect(await postCallback(s, { phone: '+380671234567', turnstileToken: 'tok-1' })).toMatchObject({ status: 403, code: 'captcha_failed' });
    expect(verifyCalls).toHaveLength(1);
    expect(callbackCalls(s)).toHaveLength(1);
  });

  it('refuses a token Cloudflare refuses', async () => {
    const s = await start();
    expect(await postCallback(s, { phone: '+380501234567', turnstileToken: 'made-up' })).toMatchObject({ status: 403, code: 'captcha_failed' });
    expect(callbackCalls(s)).toHaveLength(0);
  });

  it('refuses a token solved on another site', async () => {
    const s = await start();
    solved.set('tok-2', 'evil.example');
    expect(await postCallback(s, { phone: '+380501234567', turnstileToken: 'tok-2' })).toMatchObject({ status: 403, code: 'captcha_failed' });
    expect(callbackCalls(s)).toHaveLength(0);
  });

  it('fails closed when the verifier is down or answers nonsense', async () => {
    const s = await start();
    mode = 'down';
    solved.set('tok-3', 'shop.example');
    expect(await postCallback(s, { phone: '+380501234567', turnstileToken: 'tok-3' })).toMatchObject({ status: 503, code: 'temporarily_unavailable' });
    mode = 'garbage';
    solved.set('tok-4', 'shop.example');
    expect(await postCallback(s, { phone: '+380501234567', turnstileToken: 'tok-4' })).toMatchObject({ status: 503, code: 'temporarily_unavailable' });
    expect(callbackCalls(s)).toHaveLength(0);
  });

  it('fails closed when the verifier cannot be reached at all', async () => {
    const s = await start({ TURNSTILE_VERIFY_URL: 'http://127.0.0.1:1/siteverify' });
    expect(await postCallback(s, { phone: '+380501234567', turnstileToken: 'anything' })).toMatchObject({ status: 503, code: 'temporarily_unavailable' });
    expect(callbackCalls(s)).toHaveLength(0);
  });

  it('lets a repeat with the same Idempotency-Key through to the first answer although its token is spent', async () => {
    const s = await start();
    solved.set('tok-5', 'shop.example');
    expect((await postCallback(s, { phone: '+380501234567', turnstileToken: 'tok-5' }, { idempotencyKey: 'k1' })).status).toBe(202);
    expect((await postCallback(s, { phone: '+380501234567', turnstileToken: 'tok-5' }, { idempotencyKey: 'k1' })).status).toBe(202);
    expect(callbackCalls(s)).toHaveLength(1);
  });

  it('needs no token without TURNSTILE_SECRET', async () => {
    system = await startSystem({ ALLOWED_ORIGINS: ORIGIN, TURNSTILE_VERIFY_URL: `${fake.url}/siteverify` }, { simulator: { timing: QUICK_CALLS } });
    expect(await postCallback(system, { phone: '+380501234567' })).toMatchObject({ status: 202, code: undefined });
    expect(verifyCalls).toHaveLength(0);
    expect(callbackCalls(system)).toHaveLength(1);
  });

  it('has no bypass: with TURNSTILE_SECRET no request field skips the check', async () => {
    const s = await start();
    expect(await postCallback(s, { phone: '+380501234567', turnstileToken: '' })).toMatchObject({ status: 400, code: 'captcha_required' });
    // A field the contract does not know is refused as such, before the CAPTCHA is even asked.
    expect(await postCallback(s, { phone: '+380501234567', turnstileToken: 'x', captcha: false })).toMatchObject({ status: 400, code: 'invalid_request' });
    expect(verifyCalls).toHaveLength(0);
    // Every field a visitor may send, with a token the verifier refuses: it is asked, once, and its "no" stands.
    const everything = {
      phone: '+380501234567',
      country: 'UA',
      consent: true,
      consentText: 'Call me',
      locale: 'uk',
      pageUrl: 'https://shop.example/',
      attribution: { utmSource: 'google' },
    };
    expect(await postCallback(s, { ...everything, turnstileToken: 'x' })).toMatchObject({ status: 403, code: 'captcha_failed' });
    expect(verifyCalls).toEqual([{ secret: SECRET, response: 'x', remoteip: '127.0.0.1' }]);
    expect(callbackCalls(s)).toHaveLength(0);
  });
});
