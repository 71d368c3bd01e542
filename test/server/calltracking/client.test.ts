// The service client against the simulator, over real HTTP: every endpoint, its typed answer, and
// every way the service can fail.
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { startSimulator, type Simulator } from '../../../server/simulator/index.ts';
import { createCallTrackingClient, type CallTrackingClient } from '../../../server/src/calltracking/client.ts';
import {
  CallTrackingConnectError,
  CallTrackingHttpError,
  CallTrackingInvalidResponseError,
  CallTrackingRejectedError,
  CallTrackingTimeoutError,
  CallTrackingTransportError,
} from '../../../server/src/calltracking/errors.ts';
import { MAX_ROWS_PER_REQUEST } from '../../../server/src/calltracking/calls-list.ts';
import { deadUrl } from '../../support/listen.ts';

let sim: Simulator & { url: string };
let client: CallTrackingClient;
const TZ = 'Europe/Kyiv';

const visitor = '380501234567';
const params = (over: Partial<Parameters<CallTrackingClient['callbackExternal']>[0]> = {}) => ({
  caller: sim.officeLine,
  callee: visitor,
  caller_type: 'default' as const,
  callee_type: 'default' as const,
  direction: 'out' as const,
  manager_dst: 1 as const,
  projectId: sim.projectId,
  clientIp: '203.0.113.7',
  utmSource: 'google',
  utmMedium: 'cpc',
  clientId: '1907690628.1747750782',
  ...over,
});

const callsOf = (path: string) => sim.requests.filter((r) => r.path.startsWith(path));

beforeAll(async () => {
  sim = await startSimulator({ port: 0, host: '127.0.0.1', timeZone: TZ, timing: { agentAnswerMs: 20, visitorRingMs: 20, talkMs: 1000 } });
  client = createCallTrackingClient({ baseUrl: sim.url, authKey: sim.authKey, timeoutMs: 1500, timeZone: TZ });
});
afterAll(async () => {
  await client.close();
  await sim.close();
});
afterEach(() => sim.reset());

describe('sipstatus', () => {
  it('lists online and speaking logins', async () => {
    expect((await client.sipOnline()).sort()).toEqual(['manager1', 'manager2']);
    expect(await client.sipSpeaking()).toEqual([]);
    sim.agents.setOnline('manager3', true);
    expect(await client.sipOnline()).toContain('manager3');
  });

  it('sends the Auth-key header on every request', async () => {
    await client.sipOnline();
    expect(sim.requests.at(-1)!.headers['auth-key']).toBe(sim.authKey);
  });

  it('a wrong Auth-key is a rejection with the status', async () => {
    const bad = createCallTrackingClient({ baseUrl: sim.url, authKey: 'wrong-key-123', timeoutMs: 1000 });
    const err = await bad.sipOnline().catch((e: unknown) => e);
    await bad.close();
    expect(err).toBeInstanceOf(CallTrackingRejectedError);
    expect((err as CallTrackingRejectedError).httpStatus).toBe(403);
  });

  it.each([
    ['html', CallTrackingInvalidResponseError],
    ['truncated', CallTrackingInvalidResponseError],
    ['reset', CallTrackingTransportError],
  ] as const)('a %s answer is %s', async (kind, type) => {
    sim.faults.set('sipstatus', { kind, times: 1 });
    await expect(client.sipSpeaking()).rejects.toBeInstanceOf(type);
  });

  it('5xx and 429 are HTTP errors, with Retry-After', async () => {
    sim.faults.set('sipstatus', { kind: 'status', status: 429, retryAfter: 7, times: 1 });
    const err = (await client.sipOnline().catch((e: unknown) => e)) as CallTrackingHttpError;
    expect(err).toBeInstanceOf(CallTrackingHttpError);
    expect(err.status).toBe(429);
    expect(err.retryAfter).toBe(7);
    sim.faults.set('sipstatus', { kind: 'status', status: 502, times: 1 });
    await expect(client.sipOnline()).rejects.toMatchObject({ code: 'CT_HTTP_STATUS', status: 502 });
  });

  it('a hanging service is a timeout', async () => {
    sim.faults.set('sipstatus', { kind: 'hang', times: 1 });
    const quick = createCallTrackingClient({ baseUrl: sim.url, authKey: sim.authKey, timeoutMs: 200 });
    await expect(quick.sipOnline()).rejects.toBeInstanceOf(CallTrackingTimeoutError);
    await quick.close();
  });

  it('a closed port is a connect error, the only one marked never sent', async () => {
    const c = createCallTrackingClient({ baseUrl: await deadUrl(), authKey: 'whatever-key', timeoutMs: 500 });
    const err = (await c.sipOnline().catch((e: unknown) => e)) as CallTrackingConnectError;
    await c.close();
    expect(err).toBeInstanceOf(CallTrackingConnectError);
    expect(err.neverSent).toBe(true);
  });
});

describe('Callback.external', () => {
  it('is accepted and lands in the call log with its attribution', async () => {
    const { id } = await client.callbackExternal(params());
    expect(id).toBeGreaterThan(0);
    const body = JSON.parse(callsOf('/a/v2').at(-1)!.body);
    expect(body.method).toBe('Api\\V2\\Callback.external');
    expect(callsOf('/a/v2').at(-1)!.body).toContain('"Api\\\\V2\\\\Callback.external"');
    const call = sim.calls.at(-1)!;
    expect(call.utmSource).toBe('google');
    expect(call.clientId).toBe('1907690628.1747750782');
  });

  it('a bad projectId is the documented 403 rejection', async () => {
    const err = (await client.callbackExternal(params({ projectId: 'nope' })).catch((e: unknown) => e)) as CallTrackingRejectedError;
    expect(err).toBeInstanceOf(CallTrackingRejectedError);
    expect(err.httpStatus).toBe(403);
    expect(err.rpcCode).toBeTypeOf('number');
  });

  it('an empty callee is the documented 400 rejection', async () => {
    const err = (await client.callbackExternal(params({ callee: '' })).catch((e: unknown) => e)) as CallTrackingRejectedError;
    expect(err).toBeInstanceOf(CallTrackingRejectedError);
    expect(err.httpStatus).toBe(400);
  });

  it('a refusal on HTTP 200 (error member) is a rejection with the service code', async () => {
    const err = (await client.callbackExternal(params({ callee: '380900123456' })).catch((e: unknown) => e)) as CallTrackingRejectedError;
    expect(err).toBeInstanceOf(CallTrackingRejectedError);
    expect(err.httpStatus).toBe(200);
    expect(err.serviceMessage).toMatch(/not allowed/);
    sim.faults.set('callback', { kind: 'rpc_error', code: -32099, message: 'limit', times: 1 });
    await expect(client.callbackExternal(params())).rejects.toMatchObject({ rpcCode: -32099 });
  });

  it('a cut-off answer after the call was placed is invalid, not a rejection', async () => {
    sim.faults.set('callback', { kind: 'truncated', handled: true, times: 1 });
    await expect(client.callbackExternal(params())).rejects.toBeInstanceOf(CallTrackingInvalidResponseError);
    expect(sim.calls).toHaveLength(1);
  });
});

describe('callback/outward_call', () => {
  it('is sent form-encoded and accepted', async () => {
    const result = await client.outwardCall({ extension: sim.officeLine, destination: visitor });
    const request = callsOf('/callback/outward_call').at(-1)!;
    expect(request.headers['content-type']).toBe('application/x-www-form-urlencoded');
    expect(Object.fromEntries(new URLSearchParams(request.body))).toEqual({ extension: sim.officeLine, destination: visitor });
    expect(result.uniqueid).toBe(sim.calls.at(-1)!.uniqueid);
  });

  it('an extension not connected to the project is a rejection with the service text', async () => {
    const err = (await client.outwardCall({ extension: '380441234000', destination: visitor }).catch((e: unknown) => e)) as CallTrackingRejectedError;
    expect(err).toBeInstanceOf(CallTrackingRejectedError);
    expect(err.httpStatus).toBe(400);
    expect(err.serviceMessage).toMatch(/extension/);
  });

  it('refuses empty parameters before sending anything', async () => {
    await expect(client.outwardCall({ extension: ' ', destination: visitor })).rejects.toBeInstanceOf(TypeError);
    expect(callsOf('/callback/outward_call')).toHaveLength(0);
  });

  it('an HTML page is an invalid response', async () => {
    sim.faults.set('outward_call', { kind: 'html', times: 1 });
    await expect(client.outwardCall({ extension: sim.officeLine, destination: visitor })).rejects.toBeInstanceOf(CallTrackingInvalidResponseError);
  });
});

describe('calls/list', () => {
  const day = (iso: string) => new Date(iso);

  it('sends from/to in the project zone and the fields in order; reads typed rows', async () => {
    const seeded = sim.seedCalls(5, { from: day('2024-06-02T06:00:00Z'), to: day('2024-06-02T10:00:00Z') });
    const rows = await client.callsList({
      from: day('2024-06-01T21:00:00Z'), // 2024-06-02 00:00:00 in Kyiv (UTC+3 in summer)
      to: day('2024-06-02T20:59:59Z'),
      fields: ['calldate', 'caller', 'billsec', 'waittime', 'duration_ms', 'has_recording', 'utm_source', 'client_id'],
    });
    const q = new URL(callsOf('/calls/list')[0]!.path, 'http://x').searchParams;
    expect(q.get('from')).toBe('2024-06-02 00:00:00');
    expect(q.get('to')).toBe('2024-06-02 23:59:59');
    expect(q.get('fields')).toBe('calldate,caller,billsec,waittime,duration_ms,has_recording,utm_source,client_id');
    expect(q.get('export_type')).toBe('json');
    expect(rows).toHaveLength(5);
    const first = rows[0]!;
    expect(first.calldate).toBeInstanceOf(Date);
    expect(first.calldate.getTime()).toBe(seeded[0]!.calldate.getTime());
    expect(first.waittime).toBe(seeded[0]!.waittime); // a string on the wire
    expect(first.duration_ms).toBe(seeded[0]!.durationMs);
    expect(typeof first.has_recording).toBe('boolean');
    expect(Object.keys(first)).toEqual(['calldate', 'caller', 'billsec', 'waittime', 'duration_ms', 'has_recording', 'utm_source', 'client_id']);
  });

  it('csv gives the same rows as json', async () => {
    sim.seedCalls(40, { from: day('2024-03-10T00:00:00Z'), to: day('2024-03-10T12:00:00Z'), overrides: { landing: 'https://shop.example/a;b?"q"' } });
    const query = {
      from: day('2024-03-09T22:00:00Z'),
      to: day('2024-03-10T21:59:59Z'),
      fields: ['calldate', 'dst', 'disposition', 'billsec', 'landing', 'has_recording', 'waittime'] as const,
    };
    const json = await client.callsList(query);
    const csv = await client.callsList({ ...query, format: 'csv' });
    expect(new URL(callsOf('/calls/list').at(-1)!.path, 'http://x').searchParams.get('export_type')).toBe('csv');
    expect(csv).toHaveLength(40);
    expect(csv).toEqual(json);
    expect(csv[0]!.landing).toBe('https://shop.example/a;b?"q"');
  });

  it('an empty period is an empty list', async () => {
    expect(await client.callsList({ from: day('2020-01-01T00:00:00Z'), to: day('2020-01-01T01:00:00Z'), fields: ['calldate'] })).toEqual([]);
  });

  it('asks one project-local day at a time', async () => {
    sim.seedCalls(30, { from: day('2024-05-01T00:00:00Z'), to: day('2024-05-03T20:00:00Z') });
    const rows = await client.callsList({ from: day('2024-04-30T21:00:00Z'), to: day('2024-05-03T20:59:59Z'), fields: ['calldate', 'uniqueid'] });
    expect(rows).toHaveLength(30);
    expect(new Set(rows.map((r) => r.uniqueid)).size).toBe(30);
    const periods = callsOf('/calls/list').map((r) => new URL(r.path, 'http://x').searchParams);
    expect(periods.map((p) => [p.get('from'), p.get('to')])).toEqual([
      ['2024-05-01 00:00:00', '2024-05-01 23:59:59'],
      ['2024-05-02 00:00:00', '2024-05-02 23:59:59'],
      ['2024-05-03 00:00:00', '2024-05-03 23:59:59'],
    ]);
    // Sorted by calldate across pieces.
    const times = rows.map((r) => r.calldate.getTime());
    expect(times).toEqual([...times].sort((a, b) => a - b));
  });

  it('splits a day that holds more than 6,500 calls, and counts every call once', async () => {
    const busy = sim.seedCalls(MAX_ROWS_PER_REQUEST + 1500, { from: day('2024-07-01T00:00:00Z'), to: day('2024-07-01T18:00:00Z') });
    const rows = await client.callsList({ from: day('2024-06-30T21:00:00Z'), to: day('2024-07-01T20:59:59Z'), fields: ['uniqueid', 'calldate'] });
    expect(rows).toHaveLength(busy.length);
    expect(new Set(rows.map((r) => r.uniqueid)).size).toBe(busy.length);
    const requests = callsOf('/calls/list');
    expect(requests.length).toBeGreaterThan(1);
  }, 30_000);

  it('keeps descending order across days', async () => {
    sim.seedCalls(10, { from: day('2024-05-01T00:00:00Z'), to: day('2024-05-02T20:00:00Z') });
    const rows = await client.callsList({ from: day('2024-04-30T21:00:00Z'), to: day('2024-05-02T20:59:59Z'), fields: ['calldate'], order: 'desc' });
    const times = rows.map((r) => r.calldate.getTime());
    expect(times).toEqual([...times].sort((a, b) => b - a));
    expect(times).toHaveLength(10);
  });

  it('passes filters', async () => {
    sim.seedCalls(8, { from: day('2024-05-01T00:00:00Z'), to: day('2024-05-01T10:00:00Z') });
    sim.seedCalls(3, { from: day('2024-05-01T11:00:00Z'), to: day('2024-05-01T12:00:00Z'), overrides: { utmCampaign: 'brand-x' } });
    const rows = await client.callsList({ from: day('2024-04-30T21:00:00Z'), to: day('2024-05-01T20:59:59Z'), fields: ['utm_campaign'], filters: { utm_campaign: 'brand-x' } });
    expect(rows).toEqual([{ utm_campaign: 'brand-x' }, { utm_campaign: 'brand-x' }, { utm_campaign: 'brand-x' }]);
  });

  it('refuses unknown fields before asking the service', async () => {
    await expect(client.callsList({ from: day('2024-05-01T00:00:00Z'), to: day('2024-05-01T01:00:00Z'), fields: ['calldate', 'nope' as 'calldate'] })).rejects.toThrow(
      /unknown field nope/,
    );
    expect(callsOf('/calls/list')).toHaveLength(0);
  });

  it('a refused request carries the service text', async () => {
    sim.faults.set('calls', { kind: 'status', status: 400, body: '{"error":{"code":400,"message":"incorrect field: foo"}}', times: 1 });
    const err = (await client
      .callsList({ from: day('2024-05-01T00:00:00Z'), to: day('2024-05-01T01:00:00Z'), fields: ['calldate'] })
      .catch((e: unknown) => e)) as CallTrackingRejectedError;
    expect(err).toBeInstanceOf(CallTrackingRejectedError);
    expect(err.serviceMessage).toBe('incorrect field: foo');
  });

  it('broken answers are invalid responses; 503 an HTTP error', async () => {
    const q = { from: day('2024-05-01T00:00:00Z'), to: day('2024-05-01T01:00:00Z'), fields: ['calldate'] as const };
    sim.faults.set('calls', { kind: 'truncated', times: 1 });
    await expect(client.callsList(q)).rejects.toBeInstanceOf(CallTrackingInvalidResponseError);
    sim.faults.set('calls', { kind: 'html', times: 1 });
    await expect(client.callsList(q)).rejects.toBeInstanceOf(CallTrackingInvalidResponseError);
    sim.faults.set('calls', { kind: 'html', times: 1 });
    await expect(client.callsList({ ...q, format: 'csv' })).rejects.toBeInstanceOf(CallTrackingInvalidResponseError);
    sim.faults.set('calls', { kind: 'status', status: 503, times: 1 });
    await expect(client.callsList(q)).rejects.toBeInstanceOf(CallTrackingHttpError);
  });

  it('a placed callback shows in the log with its disposition once it ends', async () => {
    const before = new Date(Date.now() - 2000);
    await client.callbackExternal(params());
    await expect.poll(() => sim.calls.at(-1)?.state, { timeout: 5000 }).toBe('ended');
    const rows = await client.callsList({
      from: before,
      to: new Date(Date.now() + 2000),
      fields: ['calldate', 'caller', 'dst', 'disposition', 'billsec', 'call_type', 'utm_source'],
    });
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({ disposition: 'ANSWERED', call_type: 'callback', utm_source: 'google' });
    expect([rows[0]!.caller, rows[0]!.dst]).toContain(visitor);
  });
});
