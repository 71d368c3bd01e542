// Contract of POST /a/v2 (JSON-RPC 2.0 `Api\V2\Callback.external`): success, the spec's 403 and 400,
// JSON-RPC protocol errors, and HTTP-200 refusals.
import { afterAll, beforeEach, describe, expect, it } from 'vitest';
import { callback, callbackParams, jsonOf, postJson, rpcBody, start, type RunningSim } from '../support/simulator.ts';

let sim: RunningSim;
beforeEach(async () => {
  if (!sim) sim = await start({ timing: { agentAnswerMs: 60_000, visitorRingMs: 60_000, talkMs: 60_000 } });
  sim.reset();
});
afterAll(() => sim?.close());

interface RpcError {
  jsonrpc: string;
  id: number | null;
  error: { code: number; message: string };
}

async function expectRpcError(res: Response, status: number, code: number, id: number | null = 777): Promise<RpcError> {
  expect(res.status).toBe(status);
  const body = (await jsonOf(res)) as RpcError;
  expect(body).toEqual({ jsonrpc: '2.0', id, error: { code, message: expect.any(String) } });
  expect(body.error.message.length).toBeGreaterThan(0);
  return body;
}

describe('success', () => {
  it('answers 200 with the same id and a result, and the call appears in the log', async () => {
    const res = await callback(sim);
    expect(res.status).toBe(200);
    const body = (await jsonOf(res)) as Record<string, unknown>;
    expect(body).toMatchObject({ jsonrpc: '2.0', id: 777 });
    expect(body).toHaveProperty('result');
    expect(body).not.toHaveProperty('error');
    expect(sim.calls).toHaveLength(1);
    expect(sim.calls[0]).toMatchObject({
      callType: 'callback',
      disposition: 'IN PROGRESS',
      visitor: '380501234567',
      clientIp: '203.0.113.7',
      utmSource: 'google',
      clientId: '576047607.1537442595',
      userAgent: 'Mozilla/5.0 (Test)',
      managerDst: 1,
    });
  });

  it('stores every optional string in its own field', async () => {
    expect((await callback(sim)).status).toBe(200);
    expect(sim.calls[0]).toMatchObject({ utmMedium: 'cpc', utmCampaign: 'brand', utmTerm: 'call me', utmContent: 'ad-1' });
  });

  it('leaves the defaults in place for optional strings the request did not carry', async () => {
    const absent = { utmSource: undefined, utmMedium: undefined, utmCampaign: undefined, utmTerm: undefined, utmContent: undefined };
    expect((await callback(sim, { ...absent, clientId: undefined, clientUserAgent: undefined })).status).toBe(200);
    expect(sim.calls[0]).toMatchObject({
      utmSource: '(direct)',
      utmMedium: '(none)',
      utmCampaign: '(direct)',
      utmContent: '(not set)',
      utmTerm: '(none)',
      clientId: '',
      userAgent: '',
    });
  });

  it('echoes any numeric id', async () => {
    const res = await postJson(sim, '/a/v2', rpcBody(callbackParams(sim), 42));
    expect(((await jsonOf(res)) as { id: number }).id).toBe(42);
  });

  it('accepts the method with each backslash doubled on the wire, exactly as the spec shows', async () => {
    const raw = `{"jsonrpc":"2.0","id":1,"method":"Api\\\\V2\\\\Callback.external","params":${JSON.stringify(callbackParams(sim))}}`;
    expect(raw).toContain('"Api\\\\V2\\\\Callback.external"');
    expect((await postJson(sim, '/a/v2', raw)).status).toBe(200);
  });

  it('accepts a leading + on numbers and stores digits', async () => {
    expect((await callback(sim, { callee: '+380501234567' })).status).toBe(200);
    expect(sim.calls[0]?.visitor).toBe('380501234567');
  });

  it('accepts an agent SIP login as caller', async () => {
    expect((await callback(sim, { caller: 'manager2' })).status).toBe(200);
    expect(sim.calls[0]?.agent).toBe('manager2');
  });

  it('needs only the params the spec marks required', async () => {
    const params = { caller: sim.officeLine, callee: '380501234567', projectId: sim.projectId, clientIp: '2001:db8::1' };
    expect((await postJson(sim, '/a/v2', rpcBody(params))).status).toBe(200);
  });
});

describe('403: Auth-key, clientIp, projectId', () => {
  it('refuses a missing Auth-key', async () => {
    await expectRpcError(await callback(sim, {}, null), 403, -32003);
  });
  it('refuses a wrong Auth-key', async () => {
    await expectRpcError(await callback(sim, {}, 'wrong-key-0000000000'), 403, -32003);
  });
  it.each([
    ['missing', undefined],
    ['empty', ''],
    ['not an address', 'localhost'],
    ['a number', 2130706433],
  ])('refuses a clientIp that is %s', async (_what, clientIp) => {
    await expectRpcError(await callback(sim, { clientIp }), 403, -32003);
  });
  it.each([
    ['another project', '999'],
    ['a number instead of a string', 100500],
    ['missing', undefined],
  ])('refuses a projectId that is %s', async (_what, projectId) => {
    await expectRpcError(await callback(sim, { projectId }), 403, -32003);
  });
  it('places no call on a 403', async () => {
    await callback(sim, {}, null);
    expect(sim.calls).toHaveLength(0);
  });
});

describe('400: caller and callee, other params', () => {
  it.each([
    ['callee empty', { callee: '' }],
    ['callee missing', { callee: undefined }],
    ['callee national format', { callee: '0501234567' }],
    ['callee with a trunk zero after the country code', { callee: '3800501234567' }],
    ['callee with letters', { callee: '38050123abc7' }],
    ['callee an unknown SIP login', { callee: 'nobody' }],
    ['caller empty', { caller: '' }],
    ['caller not a number', { caller: 12345 }],
    ['caller_type unknown', { caller_type: 'phone' }],
    ['direction unknown', { direction: 'sideways' }],
    ['manager_dst a string', { manager_dst: '1' }],
    ['manager_dst 2', { manager_dst: 2 }],
    ['utmSource not a string', { utmSource: 5 }],
    ['an unknown parameter (e.g. snake_case utm)', { utm_source: 'google' }],
  ])('answers 400 -32602 for %s', async (_what, overrides) => {
    await expectRpcError(await callback(sim, overrides), 400, -32602);
    expect(sim.calls).toHaveLength(0);
  });

  it('answers 400 when params is not an object', async () => {
    await expectRpcError(await postJson(sim, '/a/v2', rpcBody(['a'])), 400, -32602);
  });
});

describe('JSON-RPC protocol errors', () => {
  it('answers -32700 to a body that is not JSON', async () => {
    await expectRpcError(await postJson(sim, '/a/v2', '{"jsonrpc": "2.0", "id": 1,'), 200, -32700, null);
  });
  it('answers -32600 when jsonrpc is not "2.0"', async () => {
    await expectRpcError(await postJson(sim, '/a/v2', { ...rpcBody(callbackParams(sim)), jsonrpc: '1.0' }), 200, -32600);
  });
  it.each([
    ['missing', undefined],
    ['a string', '777'],
  ])('answers -32600 when id is %s', async (_what, id) => {
    const body: Record<string, unknown> = { ...rpcBody(callbackParams(sim)), id };
    if (id === undefined) delete body.id;
    await expectRpcError(await postJson(sim, '/a/v2', body), 200, -32600, null);
    expect(sim.calls).toHaveLength(0);
  });
  it('answers -32600 when id is a number too large to be finite (JSON.parse makes it Infinity)', async () => {
    const raw = JSON.stringify(rpcBody(callbackParams(sim))).replace('"id":777', '"id":1e999');
    expect(raw).toContain('"id":1e999');
    await expectRpcError(await postJson(sim, '/a/v2', raw), 200, -32600, null);
    expect(sim.calls).toHaveLength(0);
  });
  it('answers -32600 to a batch', async () => {
    await expectRpcError(await postJson(sim, '/a/v2', [rpcBody(callbackParams(sim))]), 200, -32600, null);
  });
  it.each([
    ['another method', 'Api\\V2\\Callback.internal'],
    ['the method with doubled backslashes after decoding', 'Api\\\\V2\\\\Callback.external'],
    ['the method with slashes', 'Api/V2/Callback.external'],
  ])('answers -32601 to %s', async (_what, method) => {
    await expectRpcError(await postJson(sim, '/a/v2', rpcBody(callbackParams(sim), 777, method)), 200, -32601);
  });
  it('answers 405 to GET', async () => {
    const res = await fetch(`${sim.url}/a/v2`, { headers: { 'Auth-key': sim.authKey } });
    expect(res.status).toBe(405);
    expect(res.headers.get('allow')).toBe('POST');
  });
  it('answers 413 to an oversized body and keeps serving', async () => {
    const res = await postJson(sim, '/a/v2', JSON.stringify({ pad: 'x'.repeat(100_000) }));
    expect(res.status).toBe(413);
    expect((await callback(sim)).status).toBe(200);
  });
});

describe('HTTP 200 refusals', () => {
  it('refuses a number under an outbound ban with an error member', async () => {
    await expectRpcError(await callback(sim, { callee: '380900123456' }), 200, -32010);
    expect(sim.calls).toHaveLength(0);
  });
  it('refuses a second callback to a number whose call is still in progress', async () => {
    expect((await callback(sim)).status).toBe(200);
    await expectRpcError(await callback(sim), 200, -32011);
    expect(sim.calls).toHaveLength(1);
  });
});

describe('secrecy', () => {
  it('never echoes the Auth-key or the number in an error', async () => {
    const res = await callback(sim, { callee: '0501234567' }, 'wrong-key-with-secret');
    const text = await res.text();
    expect(text).not.toContain('wrong-key-with-secret');
    expect(text).not.toContain('0501234567');
    // With the right key the number itself is judged: a 400 and a 200 refusal name it neither.
    const invalid = await callback(sim, { callee: '0501234567' });
    expect(invalid.status).toBe(400);
    expect(await invalid.text()).not.toContain('0501234567');
    const banned = await (await callback(sim, { callee: '380900123456' })).text();
    expect((JSON.parse(banned) as RpcError).error.code).toBe(-32010);
    expect(banned).not.toContain('380900123456');
  });
});
