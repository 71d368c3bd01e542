// The relay against the simulator over real sockets: what reaches the service on the wire, and
// every way POST /api/callback can answer.
import { afterEach, describe, expect, it } from 'vitest';
import { answerOf, ORIGIN, postCallback, type Answer, type CallbackBody, type PostOptions } from '../../support/post-callback.ts';
import { callbackCalls, systemPerTest, type System } from '../../support/system.ts';

const UA = 'Mozilla/5.0 (X11; Linux x86_64) DialbackTest/1.0';
const attribution = {
  utmSource: 'google',
  utmMedium: 'cpc',
  utmCampaign: 'brand',
  utmTerm: '(none)',
  utmContent: '(not set)',
  clientId: '1907690628.1747750782',
};

const start = systemPerTest({ ALLOWED_ORIGINS: ORIGIN, UPSTREAM_TIMEOUT_MS: '1500' }, { simulator: { timing: { agentAnswerMs: 20, visitorRingMs: 20, talkMs: 20 } } });
/** The test's system, which the helpers below talk to. */
let system: System;
/** Each test starts its own system, with its own settings where it needs them (one system, not two). */
async function begin(env: Record<string, string> = {}): Promise<void> {
  system = await start(env);
}

/** POST /api/callback to the test's system from a browser (its User-Agent reaches the service). */
const post = (body: CallbackBody | string, options: PostOptions = {}) => postCallback(system, body, { ...options, headers: { 'user-agent': UA, ...options.headers } });

async function expectError(res: Answer | Response, status: number, code: string, field?: string) {
  const answer = await answerOf(res);
  const body = answer.json as { error: { code: string; message: string; field?: string; nextOpenAt?: string } };
  expect({ status: answer.status, code: body.error.code }).toEqual({ status, code });
  expect(body.error.message.length).toBeGreaterThan(10);
  if (field) expect(body.error.field).toBe(field);
  return body.error;
}

describe('POST /api/callback, accepted', () => {
  it("sends exactly the spec's JSON-RPC request and answers 202 without the full number", async () => {
    await begin();
    const res = await post({ phone: '050 123 45 67', attribution, pageUrl: 'https://shop.example/landing?x=1', locale: 'uk' });
    expect(res.status).toBe(202);
    expect(res.headers.get('access-control-allow-origin')).toBe(ORIGIN);
    expect(res.text).not.toContain('501234567');
    const body = res.json;
    expect(body).toEqual({ status: 'accepted', requestId: expect.stringMatching(/^[0-9a-f-]{36}$/), phoneMasked: '+380 50 *** **67', estimateSeconds: 30 });

    const [wire] = callbackCalls(system);
    expect(callbackCalls(system)).toHaveLength(1);
    expect(wire!.method).toBe('POST');
    expect(wire!.headers['auth-key']).toBe(system.sim.authKey);
    expect(wire!.headers['content-type']).toBe('application/json');
    // The method name on the wire has each backslash doubled inside the JSON string.
    expect(wire!.body).toContain('"method":"Api\\\\V2\\\\Callback.external"');
    const rpc = JSON.parse(wire!.body);
    expect(rpc).toEqual({
      jsonrpc: '2.0',
      id: expect.any(Number),
      method: 'Api\\V2\\Callback.external',
      params: {
        caller: system.sim.officeLine,
        caller_type: 'default',
        callee: '380501234567',
        callee_type: 'default',
        direction: 'out',
        manager_dst: 1,
        projectId: system.sim.projectId,
        clientIp: '127.0.0.1',
        clientUserAgent: UA,
        ...attribution,
      },
    });
    expect(Number.isInteger(rpc.id)).toBe(true);
    expect(typeof rpc.params.projectId).toBe('string');

    const row = system.sim.calls.at(-1)!;
    expect(row).toMatchObject({
      visitor: '380501234567',
      utmSource: 'google',
      utmMedium: 'cpc',
      clientId: '1907690628.1747750782',
      clientIp: '127.0.0.1',
      userAgent: UA,
      callType: 'callback',
    });
  });

  it('omits attribution it was not given and keeps placeholders unchanged', async () => {
    await begin();
    await post({ phone: '+380 50 123 45 67' }).then((r) => expect(r.status).toBe(202));
    const bare = JSON.parse(callbackCalls(system)[0]!.body).params;
    expect(Object.keys(bare)).not.toContain('utmSource');
    expect(Object.keys(bare)).not.toContain('clientId');
  });

  it('passes the service settings from the environment through as given', async () => {
    await begin({ CALLBACK_CALLER: 'manager1', CALLBACK_CALLER_TYPE: 'default', CALLBACK_DIRECTION: 'out', CALLBACK_MANAGER_DST: '0' });
    await post({ phone: '0501234567' }).then((r) => expect(r.status).toBe(202));
    expect(JSON.parse(callbackCalls(system)[0]!.body).params).toMatchObject({ caller: 'manager1', manager_dst: 0 });
  });

  it('believes X-Forwarded-For only from a trusted proxy', async () => {
    await begin();
    await post({ phone: '0501234567' }, { forwardedFor: '203.0.113.50' });
    expect(JSON.parse(callbackCalls(system)[0]!.body).params.clientIp).toBe('127.0.0.1');
    await begin({ TRUSTED_PROXIES: '127.0.0.1' });
    await post({ phone: '0501234567' }, { forwardedFor: '6.6.6.6, 203.0.113.50' });
    expect(JSON.parse(callbackCalls(system)[0]!.body).params.clientIp).toBe('203.0.113.50');
  });
});

describe('POST /api/callback, refused before the service is asked', () => {
  afterEach(() => expect(callbackCalls(system)).toHaveLength(0));

  it('invalid_request: not JSON, not an object, unknown fields, wrong types', async () => {
    await begin();
    await expectError(await post('{"phone":'), 400, 'invalid_request');
    await expectError(await post('[1,2]'), 400, 'invalid_request');
    await expectError(await post({ phone: '0501234567', admin: true }), 400, 'invalid_request');
    await expectError(await post({ phone: '0501234567', consent: 'yes' }), 400, 'invalid_request', 'consent');
    await expectError(await post({ phone: '0501234567', attribution: { utmSource: 'x'.repeat(500) } }), 400, 'invalid_request', 'attribution.utmSource');
  });

  it('invalid_phone at the phone field', async () => {
    await begin();
    await expectError(await post({ phone: 'call me' }), 400, 'invalid_phone', 'phone');
    await expectError(await post({ phone: '12' }), 400, 'invalid_phone', 'phone');
    await expectError(await post({ phone: '050 123' }), 400, 'invalid_phone', 'phone');
    await expectError(await post({ phone: 42 }), 400, 'invalid_phone', 'phone');
  });

  it("a missing or wrong-typed field is named in plain words, not in the validator's", async () => {
    await begin();
    expect((await expectError(await post({}), 400, 'invalid_phone', 'phone')).message).toBe('The field "phone" is missing: send the number to call.');
    expect((await expectError(await post({ phone: ['0501234567'] }), 400, 'invalid_phone', 'phone')).message).toBe('The field "phone" must be a string.');
    expect((await expectError(await post({ phone: '0501234567', consent: 'yes' }), 400, 'invalid_request', 'consent')).message).toBe('The field "consent" must be a boolean.');
    expect((await expectError(await post({ phone: '0501234567', attribution: 'google' }), 400, 'invalid_request', 'attribution')).message).toBe(
      'The field "attribution" must be an object.',
    );
  });

  it('country_not_allowed', async () => {
    await begin();
    await expectError(await post({ phone: '+44 20 7946 0958' }), 400, 'country_not_allowed', 'phone');
  });

  it('consent_required when the relay requires consent', async () => {
    await begin({ REQUIRE_CONSENT: 'true' });
    await expectError(await post({ phone: '0501234567' }), 400, 'consent_required', 'consent');
    await expectError(await post({ phone: '0501234567', consent: false }), 400, 'consent_required', 'consent');
  });

  it('origin_not_allowed for a foreign or missing Origin, without CORS headers', async () => {
    await begin();
    const foreign = await post({ phone: '0501234567' }, { origin: 'https://evil.example' });
    expect(foreign.headers.get('access-control-allow-origin')).toBeNull();
    await expectError(foreign, 403, 'origin_not_allowed');
    const none = await postCallback(system, '{"phone":"0501234567"}', { origin: null });
    await expectError(none, 403, 'origin_not_allowed');
  });

  it('payload_too_large and unsupported_media_type', async () => {
    await begin();
    await expectError(await post({ phone: '0501234567', pageUrl: 'https://shop.example/' + 'a'.repeat(25_000) }), 413, 'payload_too_large');
    await expectError(await post('phone=0501234567', { headers: { 'content-type': 'application/x-www-form-urlencoded' } }), 415, 'unsupported_media_type');
  });

  it('closed outside WORKING_HOURS, with the next opening', async () => {
    // Open one minute a week, at a time that is never "now" in this test: Sunday 03:00–03:01 UTC+14.
    await begin({ WORKING_HOURS: 'Sun 03:00-03:01', TIMEZONE: 'Pacific/Kiritimati' });
    const error = await expectError(await post({ phone: '0501234567' }), 409, 'closed');
    expect(new Date(error.nextOpenAt!).getTime()).toBeGreaterThan(Date.now());
  });

  it('not_found and method_not_allowed', async () => {
    await begin();
    await expectError(await fetch(`${system.relayUrl}/api/nothing`), 404, 'not_found');
    const res = await fetch(`${system.relayUrl}/api/callback`, { method: 'PUT' });
    expect(res.headers.get('allow')).toBe('POST');
    await expectError(res, 405, 'method_not_allowed');
  });
});

describe('POST /api/callback, when the service fails', () => {
  it("upstream_rejected: a JSON-RPC error, and the service's text stays out of the answer", async () => {
    await begin();
    system.sim.faults.set('callback', { kind: 'rpc_error', code: 17, message: 'outbound calls banned for SECRET-INTERNAL' });
    const res = await post({ phone: '0501234567' });
    expect(res.text).not.toContain('SECRET-INTERNAL');
    await expectError(res, 502, 'upstream_rejected');
    expect(callbackCalls(system)).toHaveLength(1);
  });

  it('upstream_unavailable: 503 from the service, with Retry-After', async () => {
    await begin();
    system.sim.faults.set('callback', { kind: 'status', status: 503 });
    const res = await post({ phone: '0501234567' });
    expect(Number(res.headers.get('retry-after'))).toBeGreaterThan(0);
    await expectError(res, 503, 'upstream_unavailable');
    expect(callbackCalls(system)).toHaveLength(1);
  });

  it('upstream_timeout: the service hangs past UPSTREAM_TIMEOUT_MS, and is not asked twice', async () => {
    await begin();
    system.sim.faults.set('callback', { kind: 'hang' });
    await expectError(await post({ phone: '0501234567' }), 504, 'upstream_timeout');
    expect(callbackCalls(system)).toHaveLength(1);
  });

  it('upstream_unknown: an HTML page or a reset connection', async () => {
    await begin();
    system.sim.faults.set('callback', { kind: 'html', times: 1 });
    await expectError(await post({ phone: '0501234567' }), 502, 'upstream_unknown');
    system.sim.faults.set('callback', { kind: 'reset', times: 1 });
    await expectError(await post({ phone: '0661234567' }), 502, 'upstream_unknown');
  });
});

describe('CORS preflight', () => {
  it('allows the allowlisted origin and refuses others', async () => {
    await begin();
    const ok = await fetch(`${system.relayUrl}/api/callback`, { method: 'OPTIONS', headers: { origin: ORIGIN, 'access-control-request-method': 'POST' } });
    expect(ok.status).toBe(204);
    expect(ok.headers.get('access-control-allow-origin')).toBe(ORIGIN);
    expect(ok.headers.get('access-control-allow-headers')).toMatch(/Idempotency-Key/i);
    const bad = await fetch(`${system.relayUrl}/api/callback`, { method: 'OPTIONS', headers: { origin: 'https://evil.example' } });
    expect(bad.status).toBe(403);
    expect(bad.headers.get('access-control-allow-origin')).toBeNull();
  });
});

describe('logs', () => {
  it('never contain the Auth-key or a full phone number', async () => {
    await begin();
    await post({ phone: '050 123 45 67', attribution });
    system.sim.faults.set('callback', { kind: 'rpc_error', message: `bad number 380671234567 key ${system.sim.authKey}` });
    await post({ phone: '067 123 45 67' });
    const all = system.rawLogs.join('\n');
    expect(system.rawLogs.length).toBeGreaterThan(2);
    expect(all).not.toContain(system.sim.authKey);
    expect(all).not.toMatch(/380501234567|380671234567|123 45 67/);
    expect(system.logs.some((l) => l.msg === 'callback accepted' && l.phone === '+380*******67')).toBe(true);
  });
});
