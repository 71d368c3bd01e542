// The routing webhook against a small real node:http receiver: every method, both submission and
// import types, the named member, the reply timeout, and every bad reply skipping to the next step.
import { createServer, type IncomingHttpHeaders } from 'node:http';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { RouteMethod, RoutingScheme } from '../../server/simulator/index.ts';
import { deadUrl, listen, type Listening } from '../support/listen.ts';
import { callback, get, jsonOf, start, waitFor, type RunningSim } from '../support/simulator.ts';

interface Received {
  method: string;
  url: string;
  headers: IncomingHttpHeaders;
  body: string;
}
type Behaviour = { status?: number; body?: string; contentType?: string } | 'hang';

const received: Received[] = [];
let behaviour: Behaviour = { body: 'manager2' };
const receiver = createServer((req, res) => {
  let body = '';
  req.setEncoding('utf8');
  req.on('data', (c: string) => (body += c));
  req.on('end', () => {
    received.push({ method: req.method ?? '', url: req.url ?? '', headers: req.headers, body });
    if (behaviour === 'hang') return;
    res.writeHead(behaviour.status ?? 200, { 'content-type': behaviour.contentType ?? 'text/plain' });
    res.end(behaviour.body ?? '');
  });
});

let crm: Listening;
let sim: RunningSim;
beforeAll(async () => {
  crm = await listen(receiver);
  sim = await start({ timing: { agentAnswerMs: 10, visitorRingMs: 10, talkMs: 10 } });
});
afterAll(async () => {
  await sim?.close();
  await crm?.close();
});
beforeEach(() => {
  sim.reset();
  sim.routing.clear();
  received.length = 0;
  behaviour = { body: 'manager2' };
});

const scheme = (over: Partial<RoutingScheme> = {}): RoutingScheme => ({
  url: `${crm.url}/hooks/route/secret-token?site=1`,
  method: 'POST',
  submission: 'http',
  import: 'http',
  timeoutSeconds: 2,
  ...over,
});
const only = (): Received => {
  expect(received).toHaveLength(1);
  return received[0] as Received;
};
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

function expectCallParams(values: Record<string, string>) {
  expect(values.call_id).toMatch(/^\d+\.\d+$/);
  expect(values.uuid).toMatch(UUID);
  expect(values.google_id).toBe('G-SIM0000001');
  // step_forward is itself URL-encoded: decoding the transport once still leaves an encoded id.
  expect(values.step_forward).toMatch(/%2F/);
  expect(decodeURIComponent(values.step_forward ?? '')).toBe('CRM routing/step-1');
}

function expectCommonHeaders(r: Received, contentType: string) {
  expect(r.headers['content-type']).toBe(contentType);
  expect(r.headers['content-length']).toBe(String(Buffer.byteLength(r.body)));
  expect(r.headers.connection).toBe('close');
  expect(r.headers['user-agent']).toMatch(/\S/);
}

describe('request: HTTP submission', () => {
  it.each<RouteMethod>(['GET', 'DELETE'])('%s sends the parameters in the query string', async (method) => {
    sim.routing.configure(scheme({ method }));
    await sim.routing.simulateInboundCall({ from: '380671234567' });
    const r = only();
    expect(r.method).toBe(method);
    expect(r.body).toBe('');
    const url = new URL(r.url, crm.url);
    expect(url.pathname).toBe('/hooks/route/secret-token');
    expect(url.searchParams.get('site')).toBe('1');
    expectCallParams(Object.fromEntries(url.searchParams));
    expectCommonHeaders(r, 'application/x-www-form-urlencoded');
  });

  it.each<RouteMethod>(['POST', 'PUT'])('%s sends the parameters as a form body', async (method) => {
    sim.routing.configure(scheme({ method }));
    await sim.routing.simulateInboundCall({ from: '380671234567' });
    const r = only();
    expect(r.method).toBe(method);
    expectCallParams(Object.fromEntries(new URLSearchParams(r.body)));
    expectCommonHeaders(r, 'application/x-www-form-urlencoded');
  });

  it('adds the scheme parameters, with {caller} and {call_id} filled in', async () => {
    sim.routing.configure(scheme({ params: { site: 'shop', who: '{caller}', ref: 'c-{call_id}' } }));
    const result = await sim.routing.simulateInboundCall({ from: '380671234567' });
    const values = Object.fromEntries(new URLSearchParams(only().body));
    expect(values).toMatchObject({ site: 'shop', who: '380671234567', ref: `c-${result.call.uniqueid}` });
  });
});

describe('request: JSON submission', () => {
  it.each<RouteMethod>(['GET', 'POST', 'PUT', 'DELETE'])('forces POST with a JSON body (scheme says %s)', async (method) => {
    sim.routing.configure(scheme({ method, submission: 'json' }));
    expect(sim.routing.scheme?.method).toBe('POST');
    await sim.routing.simulateInboundCall({ from: '380671234567' });
    const r = only();
    expect(r.method).toBe('POST');
    const body = JSON.parse(r.body) as Record<string, string>;
    expect(Object.keys(body).sort()).toEqual(['call_id', 'google_id', 'step_forward', 'uuid']);
    expectCallParams(body);
    expectCommonHeaders(r, 'application/json');
  });
});

describe('reply: routed', () => {
  it('HTTP import takes the whole plain body as a SIP login and the agent speaks', async () => {
    // A simulator of its own whose conversation lasts long enough to be seen in /sipstatus/speaking
    // however slow the machine is (the file's shared one talks for 10 ms).
    const talking = await start({ timing: { agentAnswerMs: 10, visitorRingMs: 10, talkMs: 1_500 } });
    try {
      talking.routing.configure(scheme());
      behaviour = { body: 'manager2\n' };
      const result = await talking.routing.simulateInboundCall({ from: '+380671234567' });
      expect(result).toMatchObject({ destination: 'manager2', reason: 'routed', status: 200 });
      expect(result.call).toMatchObject({ callType: 'in', caller: '380671234567', dst: talking.officeLine, connectedWith: 'manager2', schemeName: 'CRM routing' });
      await waitFor('manager2 to speak', async () => ((await jsonOf(await get(talking, '/sipstatus/speaking'))) as string[]).includes('manager2'));
      await waitFor('the end', () => result.call.state === 'ended');
      expect(result.call.disposition).toBe('ANSWERED');
    } finally {
      await talking.close();
    }
  });

  it('HTTP import takes a phone number', async () => {
    sim.routing.configure(scheme());
    behaviour = { body: '+380931112233' };
    const result = await sim.routing.simulateInboundCall({ from: '380671234567' });
    expect(result).toMatchObject({ destination: '380931112233', reason: 'routed' });
    expect(result.call.connectedWith).toBe('380931112233');
  });

  it('JSON import takes the named member', async () => {
    sim.routing.configure(scheme({ submission: 'json', import: 'json', destinationField: 'dst' }));
    behaviour = { body: JSON.stringify({ dst: 'manager2', other: 'manager1' }), contentType: 'application/json' };
    const result = await sim.routing.simulateInboundCall({ from: '380671234567' });
    expect(result).toMatchObject({ destination: 'manager2', reason: 'routed' });
  });

  it('an inbound call shows in the call log export', async () => {
    sim.routing.configure(scheme());
    await sim.routing.simulateInboundCall({ from: '380671234567' });
    const rows = (await jsonOf(await get(sim, '/calls/list?fields=call_type,caller,connected_with,scheme_name'))) as unknown[];
    expect(rows).toEqual([{ call_type: 'in', caller: '380671234567', connected_with: 'manager2', scheme_name: 'CRM routing' }]);
  });
});

describe('reply: skipped to the next step, never retried', () => {
  it.each<[string, Behaviour, Partial<RoutingScheme>, string]>([
    ['a non-200 status', { status: 500, body: 'manager2' }, {}, 'http_status'],
    ['a 404', { status: 404, body: '' }, {}, 'http_status'],
    ['an empty body', { body: '   ' }, {}, 'empty_body'],
    ['a body that is not a destination', { body: '<html>oops</html>' }, {}, 'invalid_destination'],
    ['bad JSON', { body: '{"dst": "manager2"', contentType: 'application/json' }, { import: 'json', destinationField: 'dst' }, 'bad_json'],
    ['a JSON array', { body: '["manager2"]', contentType: 'application/json' }, { import: 'json', destinationField: 'dst' }, 'bad_json'],
    ['a missing member', { body: '{"destination": "manager2"}', contentType: 'application/json' }, { import: 'json', destinationField: 'dst' }, 'missing_member'],
    ['a member that is not a string', { body: '{"dst": 380931112233}', contentType: 'application/json' }, { import: 'json', destinationField: 'dst' }, 'invalid_destination'],
  ])('%s', async (_what, reply, over, reason) => {
    sim.routing.configure(scheme(over));
    behaviour = reply;
    const result = await sim.routing.simulateInboundCall({ from: '380671234567' });
    expect(result.destination).toBeNull();
    expect(result.reason).toBe(reason);
    expect(received).toHaveLength(1);
    // The next step: the office line's queue picks a free online agent.
    expect(result.call.connectedWith).toBe('manager1');
    expect(result.call.callType).toBe('in');
  });

  it('a reply slower than the scheme timeout', async () => {
    sim.routing.configure(scheme({ timeoutSeconds: 0.2 }));
    behaviour = 'hang';
    const result = await sim.routing.simulateInboundCall({ from: '380671234567' });
    expect(result).toMatchObject({ destination: null, reason: 'timeout' });
    expect(received).toHaveLength(1);
  });

  it('an unreachable URL', async () => {
    sim.routing.configure(scheme({ url: `${await deadUrl()}/hook` }));
    const result = await sim.routing.simulateInboundCall({ from: '380671234567' });
    expect(result).toMatchObject({ destination: null, reason: 'network_error' });
  });

  it('no scheme configured', async () => {
    const result = await sim.routing.simulateInboundCall({ from: '380671234567' });
    expect(result).toMatchObject({ destination: null, reason: 'no_scheme' });
    expect(received).toHaveLength(0);
  });

  it("the next step is the office line's own queue: it takes turns with callbacks", async () => {
    await callback(sim);
    const first = sim.calls[0];
    expect(first?.agent).toBe('manager1');
    await waitFor('the callback to end', () => first?.state === 'ended');
    // manager1 is free again, but it is manager2's turn in the queue.
    const result = await sim.routing.simulateInboundCall({ from: '380671234567' });
    expect(result.reason).toBe('no_scheme');
    expect(result.call.connectedWith).toBe('manager2');
  });

  it('ends NO ANSWER when the next step finds no agent online', async () => {
    sim.agents.setOnline('manager1', false);
    sim.agents.setOnline('manager2', false);
    sim.routing.configure(scheme());
    behaviour = { status: 500 };
    const result = await sim.routing.simulateInboundCall({ from: '380671234567' });
    await waitFor('the end', () => result.call.state === 'ended');
    expect(result.call.disposition).toBe('NO ANSWER');
    expect(result.call.connectedWith).toBe('');
  });
});

describe('scheme validation', () => {
  it.each<[string, Partial<RoutingScheme>]>([
    ['JSON import without destinationField', { import: 'json' }],
    ['a URL that is not one', { url: 'not a url' }],
    ['a non-http URL', { url: 'ftp://crm.example/hook' }],
    ['an unknown method', { method: 'PATCH' as RouteMethod }],
    ['a zero timeout', { timeoutSeconds: 0 }],
  ])('refuses %s', (_what, over) => {
    expect(() => sim.routing.configure(scheme(over))).toThrow(/routing scheme/);
  });
});
