// Property-based: 10,000 malformed requests (bodies, phone strings, headers) against the real
// relay. None may cause a 5xx or take the process down, and none that is refused as invalid may
// reach the service (sim.requests is counted around every single request).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { Pool } from 'undici';
import { errorStatus, type ErrorCode } from '../../../server/src/contract/contract.ts';
import { callbackCalls, startSystem, type System } from '../../support/system.ts';

const ORIGIN = 'https://shop.example';
let s: System;
let pool: Pool;
beforeAll(async () => {
  s = await startSystem(
    // Generous limits: the point here is input handling. A site breaker would answer 503, and with
    // the defaults one client (this test) would be refused outright after its third accepted call
    // or its twentieth refusal, so later runs would never reach the checks being fuzzed.
    {
      ALLOWED_ORIGINS: ORIGIN,
      LOG_LEVEL: 'warn',
      UPSTREAM_TIMEOUT_MS: '2000',
      SITE_HOURLY_CAP: '65000',
      SITE_DAILY_CAP: '65000',
      LIMIT_NUMBER_COOLDOWN_SECONDS: '0',
      LIMIT_NUMBER_DAILY: '65000',
      LIMIT_CLIENT_RATE: '65000',
      LIMIT_CLIENT_DAILY: '65000',
      LIMIT_CLIENT_NUMBERS_DAILY: '32',
      LIMIT_CLIENT_REFUSALS: '65000',
      LIMIT_PREFIX_RATE: '65000',
      // Every request comes from 127.0.0.1: its /24 and the surge defence would refuse it too.
      LIMIT_NETWORK_IPV4_24_HOURLY: '0',
      LIMIT_NETWORK_IPV4_24_DAILY: '0',
      LIMIT_NETWORK_REFUSALS: '65000',
      SURGE_CALLS: '0',
      SURGE_CAP_PERCENT: '0',
    },
    { simulator: { timing: { agentAnswerMs: 1, visitorRingMs: 1, talkMs: 1 } } },
  );
  // One connection: requests run one at a time, so the upstream count belongs to one request.
  pool = new Pool(s.relayUrl, { connections: 1 });
});
afterAll(async () => {
  await pool.close();
  await s.close();
});

/** Every destination the policy refuses has a code of its own, `<kind>_number_not_allowed` (contract.ts). */
const destinationCodes = Object.keys(errorStatus).filter((code) => code.endsWith('_number_not_allowed'));

const validationCodes = new Set([
  'invalid_request',
  'invalid_phone',
  'country_not_allowed',
  ...destinationCodes,
  'scheduled_in_past',
  'scheduled_too_far',
  'scheduled_outside_hours',
  'already_scheduled',
  'consent_required',
  'origin_not_allowed',
  'payload_too_large',
  'unsupported_media_type',
  'not_found',
  'method_not_allowed',
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
  let field: string | undefined;
  if (res.statusCode >= 400) {
    ({ code, field } = (JSON.parse(text) as { error: { code: string; field?: string } }).error);
    // A code the contract knows, with its own status: the widget has a sentence for each one.
    expect(errorStatus[code as ErrorCode], text).toBe(res.statusCode);
    if (validationCodes.has(code)) expect(after, `${code} must not reach the service`).toBe(before);
  }
  // The service refuses a second call to a number while the first is still going (a 502 here):
  // the next run starts once the call this one placed is over.
  if (res.statusCode === 202) await callsEnded();
  return { status: res.statusCode, code, field };
}

async function callsEnded(): Promise<void> {
  while (s.sim.calls.some((c) => c.state !== 'ended')) await new Promise((r) => setTimeout(r, 1));
}

/** What the phone parser (or what follows it: the limits, the service) answers. */
const phoneAnswers = new Set(['invalid_phone', 'country_not_allowed', ...destinationCodes, 'rate_limited']);

const phoneChars = fc.constantFrom(...'0123456789+-() .\u00a0٣۳०１\u200b#*xX/\\\'"'.split(''));
/** Mostly countries of the right shape (known, lower-case, not allowed, unknown), so most runs reach the phone parser. */
const someCountry = fc.option(fc.oneof({ weight: 4, arbitrary: fc.constantFrom('UA', 'ua', 'PL', 'GB', 'XX') }, { weight: 1, arbitrary: fc.string({ maxLength: 3 }) }));
const junkPhone = fc.oneof(
  fc.string({ unit: phoneChars, maxLength: 45 }),
  fc.string({ maxLength: 45 }),
  fc.string({ unit: 'grapheme', maxLength: 20 }),
  fc.stringMatching(/^\+?\d{1,25}$/),
  fc.constantFrom('', ' ', '+', '00', '+380', '+3800000000000', '+38090012345678', '+1900 555 0199', '+80012345678', '+999999999999'),
);

describe('fuzzing POST /api/callback', () => {
  it('2,500 malformed phone strings: a specific 4xx or an accepted call, never a 5xx', async () => {
    let parsed = 0;
    await fc.assert(
      fc.asyncProperty(junkPhone, someCountry, async (phone, country) => {
        const body: Record<string, unknown> = { phone };
        if (country !== null) body.country = country;
        const { status, code, field } = await send({ body: JSON.stringify(body) });
        // A phone string is the phone parser's to judge: only a malformed country is an invalid request.
        if (code === 'invalid_request') expect(field).toBe('country');
        else expect(status === 202 || phoneAnswers.has(code!), `${status} ${code}`).toBe(true);
        if (code !== 'invalid_request') parsed++;
      }),
      { numRuns: 2500 },
    );
    // The property says little unless most runs got past the country to the phone parser.
    expect(parsed).toBeGreaterThan(2500 / 2);
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
      fc
        .constantFrom('{', '{"phone":', '[]', 'null', '{"phone":"1"}}', '\uFEFF{"phone":"+380501234567"}', '{"__proto__":{"x":1},"phone":"1"}')
        .map((t) => new TextEncoder().encode(t)),
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
        // Mostly JSON, the allowed origin and well-formed keys: a request refused for one of them ends
        // there, so the checks after it would hardly be fuzzed.
        'content-type': fc.oneof(
          { weight: 3, arbitrary: fc.constantFrom('application/json', 'application/json; charset=utf-8', 'APPLICATION/JSON') },
          fc.constantFrom('text/json', 'application/jsonx'),
          visible,
        ),
        origin: fc.oneof(
          { weight: 6, arbitrary: fc.constant(ORIGIN) },
          fc.constantFrom('null', 'https://shop.example.evil', 'HTTPS://SHOP.EXAMPLE', 'https://shop.example:443'),
          visible,
        ),
        'idempotency-key': fc.oneof({ weight: 2, arbitrary: fc.stringMatching(/^[\x21-\x7e]{1,60}$/) }, visible),
        'x-forwarded-for': visible,
        'user-agent': visible,
        'content-encoding': fc.constantFrom('gzip', 'br', 'identity', 'x'),
      },
      { requiredKeys: [] },
    );
    const extra = fc.dictionary(
      token.filter((n) => !['content-length', 'transfer-encoding', 'host', 'connection', 'expect', 'upgrade', 'keep-alive'].includes(n.toLowerCase())),
      visible,
      { maxKeys: 5 },
    );
    // Mostly POST: any other method is answered 405 (or a preflight) before a header is looked at.
    const method = fc.oneof({ weight: 4, arbitrary: fc.constant('POST') }, { weight: 1, arbitrary: fc.constantFrom('GET', 'PUT', 'DELETE', 'PATCH', 'OPTIONS') });
    let placed = 0;
    await fc.assert(
      fc.asyncProperty(headers, extra, method, async (h, x, method) => {
        const { status } = await send({ method, headers: { ...x, ...h }, body: method === 'GET' ? undefined : '{"phone":"0501234567"}' });
        if (status === 202) placed++;
      }),
      { numRuns: 2500 },
    );
    // Some header sets must get through every check to a placed call, or later checks went unfuzzed.
    expect(placed).toBeGreaterThan(100);
    // Hundreds of calls placed, each waited out: more than the default limit on a busy machine.
  }, 60_000);

  it('is still serving afterwards', async () => {
    const res = await fetch(`${s.relayUrl}/healthz`);
    expect(res.status).toBe(200);
  });
});
