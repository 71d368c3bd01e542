// Property-based: 10,000 malformed requests (bodies, phone strings, headers) against the real
// relay. None may cause a 5xx or take the process down, and none that is refused as invalid may
// reach the service (sim.requests is counted around every single request).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { Pool } from 'undici';
import { callbackCalls, startSystem, type System } from '../_util/system.js';

const ORIGIN = 'https://shop.example';
let s: System;
let pool: Pool;
beforeAll(async () => {
  s = await startSystem(
    // Generous caps: the point here is input handling, and a site breaker would answer 503.
    { ALLOWED_ORIGINS: ORIGIN, LOG_LEVEL: 'warn', SITE_HOURLY_CAP: '65000', SITE_DAILY_CAP: '65000', UPSTREAM_TIMEOUT_MS: '2000' },
    { simulator: { timing: { agentAnswerMs: 5, visitorRingMs: 5, talkMs: 5 } } },
  );
  // One connection: requests run one at a time, so the upstream count belongs to one request.
  pool = new Pool(s.relayUrl, { connections: 1 });
});
afterAll(async () => {
  await pool.close();
  await s.close();
});

const validationCodes = new Set([
  'invalid_request', 'invalid_phone', 'country_not_allowed', 'premium_number_not_allowed', 'shared_cost_number_not_allowed',
  'uan_number_not_allowed', 'voip_number_not_allowed', 'pager_number_not_allowed', 'personal_number_not_allowed',
  'consent_required', 'origin_not_allowed', 'payload_too_large', 'unsupported_media_type', 'not_found', 'method_not_allowed',
  'idempotency_key_reused',
]);

async function send(opts: { method?: string; path?: string; headers?: Record<string, string>; body?: string | Uint8Array }) {
  const before = callbackCalls(s).length;
  const res = await pool.request({
    path: opts.path ?? '/api/callback',
    method: (opts.method ?? 'POST') as 'POST',
    headers: opts.headers ?? { 'content-type': 'application/json', origin: ORIGIN },
    body: opts.body,
  });
  const text = await res.body.text();
  const after = callbackCalls(s).length;
  expect(res.statusCode, text).toBeLessThan(500);
  let code: string | undefined;
  if (res.statusCode >= 400) {
    code = (JSON.parse(text) as { error: { code: string } }).error.code;
    if (validationCodes.has(code)) expect(after, `${code} must not reach the service`).toBe(before);
  }
  return { status: res.statusCode, code };
}

const phoneChars = fc.constantFrom(...'0123456789+-() .\u00a0٣۳०１\u200b#*xX/\\\'"'.split(''));
const junkPhone = fc.oneof(
  fc.string({ unit: phoneChars, maxLength: 45 }),
  fc.string({ maxLength: 45 }),
  fc.string({ unit: 'grapheme', maxLength: 20 }),
  fc.stringMatching(/^\+?\d{1,25}$/),
  fc.constantFrom('', ' ', '+', '00', '+380', '+3800000000000', '+38090012345678', '+1900 555 0199', '+80012345678', '+999999999999'),
);

describe('fuzzing POST /api/callback', () => {
  it('2,500 malformed phone strings: a specific 4xx or an accepted call, never a 5xx', async () => {
    await fc.assert(
      fc.asyncProperty(junkPhone, fc.option(fc.string({ maxLength: 3 })), async (phone, country) => {
        const body: Record<string, unknown> = { phone };
        if (country !== null) body.country = country;
        const { status, code } = await send({ body: JSON.stringify(body) });
        if (status >= 400 && status !== 429) expect(code).toBeDefined();
      }),
      { numRuns: 2500 },
    );
  });

  it('2,500 malformed JSON values and shapes', async () => {
    const value = fc.oneof(
      fc.jsonValue({ maxDepth: 4 }),
      fc.record({ phone: fc.jsonValue({ maxDepth: 2 }) }, { requiredKeys: [] }),
      fc.record(
        {
          phone: fc.string({ maxLength: 50 }),
          consent: fc.jsonValue({ maxDepth: 1 }),
          attribution: fc.jsonValue({ maxDepth: 2 }),
          pageUrl: fc.string({ maxLength: 100 }),
          locale: fc.jsonValue({ maxDepth: 1 }),
          extra: fc.anything({ maxDepth: 2 }),
        },
        { requiredKeys: [] },
      ),
    );
    await fc.assert(
      fc.asyncProperty(value, async (v) => {
        await send({ body: JSON.stringify(v) ?? 'null' });
      }),
      { numRuns: 2500 },
    );
  });

  it('2,500 raw byte bodies that are not JSON at all', async () => {
    const bytes = fc.oneof(
      fc.uint8Array({ maxLength: 5000 }),
      fc.string({ maxLength: 300 }).map((t) => new TextEncoder().encode(t)),
      fc.constantFrom('{', '{"phone":', '[]', 'null', '{"phone":"1"}}', '\uFEFF{"phone":"+380501234567"}', '{"__proto__":{"x":1},"phone":"1"}').map((t) => new TextEncoder().encode(t)),
    );
    await fc.assert(
      fc.asyncProperty(bytes, async (body) => {
        await send({ body });
      }),
      { numRuns: 2500 },
    );
  });

  it('2,500 hostile header sets', async () => {
    const token = fc.stringMatching(/^[!#$%&'*+.^_`|~0-9A-Za-z-]{1,30}$/);
    const visible = fc.stringMatching(/^[\x20-\x7e]{0,200}$/);
    const headers = fc.record(
      {
        'content-type': fc.oneof(fc.constantFrom('application/json', 'application/json; charset=utf-8', 'APPLICATION/JSON', 'text/json', 'application/jsonx'), visible),
        origin: fc.oneof(fc.constant(ORIGIN), fc.constantFrom('null', 'https://shop.example.evil', 'HTTPS://SHOP.EXAMPLE', 'https://shop.example:443'), visible),
        'idempotency-key': visible,
        'x-forwarded-for': visible,
        'user-agent': visible,
        'content-encoding': fc.constantFrom('gzip', 'br', 'identity', 'x'),
      },
      { requiredKeys: [] },
    );
    const extra = fc.dictionary(token.filter((n) => !['content-length', 'transfer-encoding', 'host', 'connection', 'expect', 'upgrade', 'keep-alive'].includes(n.toLowerCase())), visible, { maxKeys: 5 });
    await fc.assert(
      fc.asyncProperty(headers, extra, fc.constantFrom('POST', 'GET', 'PUT', 'DELETE', 'PATCH', 'OPTIONS'), async (h, x, method) => {
        await send({ method, headers: { ...x, ...h }, body: method === 'GET' ? undefined : '{"phone":"0501234567"}' });
      }),
      { numRuns: 2500 },
    );
  });

  it('is still serving afterwards', async () => {
    const res = await fetch(`${s.relayUrl}/healthz`);
    expect(res.status).toBe(200);
  });
});
