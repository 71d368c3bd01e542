// The routing webhook, driven the way the service drives it: the simulator is configured with a
// routing scheme pointing at the relay, then simulates an inbound call and routes it by our reply.
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { startSystem, type System } from '../../support/system.ts';
import { createRoundRobin, secretPath } from '../../../server/src/routes/route-webhook.ts';
import type { RoutingScheme } from '../../../server/simulator/index.ts';

const TOKEN = 'rt_0123456789abcdefABCDEF';
const FALLBACK = '380441119999';
const caller = '380671234567';
const agents = [
  { login: 'manager1', number: '380441110001', online: true },
  { login: 'manager2', number: '380441110002', online: true },
  { login: 'manager3', number: '380441110003', online: false },
];
const timing = { agentAnswerMs: 5_000, visitorRingMs: 50, talkMs: 50 };

describe('routing webhook, every scheme mode', () => {
  let sys: System;
  beforeAll(async () => {
    sys = await startSystem({ ROUTE_WEBHOOK_TOKEN: TOKEN, ROUTE_FALLBACK: FALLBACK }, { simulator: { agents, timing } });
  });
  afterAll(() => sys.close());
  afterEach(() => sys.sim.reset());

  const hook = () => `${sys.relayUrl}/hooks/route/${TOKEN}`;

  it.each([
    ['GET', 'http'],
    ['POST', 'http'],
    ['PUT', 'http'],
    ['DELETE', 'http'],
    ['POST', 'json'],
  ] as const)('%s with %s submission and JSON import routes to a free agent', async (method, submission) => {
    sys.sim.routing.configure({ url: hook(), method, submission, import: 'json', destinationField: 'destination', timeoutSeconds: 3 });
    const result = await sys.sim.routing.simulateInboundCall({ from: caller });
    expect(result.reason).toBe('routed');
    expect(['manager1', 'manager2']).toContain(result.destination);
    expect(result.webhook!.method).toBe(method);
    if (submission === 'json') expect(JSON.parse(result.webhook!.body)).toHaveProperty('call_id', result.call.uniqueid);
    const logged = sys.logs.filter((l) => l.msg === 'route webhook').at(-1)!;
    expect(logged).toMatchObject({ method, answer: 'agent', agent: result.destination });
    expect(logged.callId).toMatch(new RegExp(`${result.call.uniqueid.split('.')[1]}$`)); // the logger masks long digit runs
  });

  it('HTTP import needs the plain-text reply: with ROUTE_REPLY=json the service skips the step', async () => {
    sys.sim.routing.configure({ url: hook(), method: 'GET', submission: 'http', import: 'http', timeoutSeconds: 3 });
    const result = await sys.sim.routing.simulateInboundCall({ from: caller });
    // The whole body `{"destination":"…"}` is not a number: exactly the misconfiguration README warns about.
    expect(result.reason).toBe('invalid_destination');
  });

  it('takes free agents in turn', async () => {
    sys.sim.routing.configure({ url: hook(), method: 'POST', submission: 'json', import: 'json', destinationField: 'destination' });
    const first = await sys.sim.routing.simulateInboundCall({ from: caller });
    const second = await sys.sim.routing.simulateInboundCall({ from: '380671234568' });
    expect(first.reason).toBe('routed');
    expect(second.reason).toBe('routed');
    expect(new Set([first.destination, second.destination])).toEqual(new Set(['manager1', 'manager2']));
  });

  it('answers ROUTE_FALLBACK when nobody is free', async () => {
    sys.sim.agents.setOnline('manager1', false);
    sys.sim.agents.setOnline('manager2', false);
    sys.sim.routing.configure({ url: hook(), method: 'GET', submission: 'http', import: 'json', destinationField: 'destination' });
    const result = await sys.sim.routing.simulateInboundCall({ from: caller });
    expect(result).toMatchObject({ reason: 'routed', destination: FALLBACK });
  });

  it('never sends CORS headers, and a foreign Origin changes nothing', async () => {
    const res = await fetch(hook(), { method: 'POST', headers: { origin: 'https://evil.example', 'content-type': 'application/json' }, body: '{"call_id":"1"}' });
    expect(res.status).toBe(200);
    expect(res.headers.get('access-control-allow-origin')).toBeNull();
    expect(await res.json()).toHaveProperty('destination');
  });

  it('logs a call id as one clean line: no control, line-separator or bidi character reaches the log', async () => {
    const res = await fetch(hook(), { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ call_id: 'abc\u2028def\u202Eghi\u0085jkl' }) });
    expect(res.status).toBe(200);
    expect(sys.logs.filter((l) => l.msg === 'route webhook').at(-1)!.callId).toBe('abc defghi jkl');
  });

  it('a malformed body still gets an answer: the call matters more than the parameters', async () => {
    const res = await fetch(hook(), { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{"call_id":' });
    expect(res.status).toBe(200);
  });

  it('refuses a body over the limit', async () => {
    const res = await fetch(hook(), { method: 'PUT', headers: { 'content-type': 'application/x-www-form-urlencoded' }, body: `x=${'a'.repeat(40_000)}` });
    expect(res.status).toBe(413);
    expect(((await res.json()) as { error: { code: string } }).error.code).toBe('payload_too_large');
  });

  it('a wrong token is the same 404 as any unknown path, for every method', async () => {
    const wrong = `/hooks/route/${TOKEN.slice(0, -1)}x`;
    const unknown = `/hooks/routx/${TOKEN}`;
    for (const method of ['GET', 'POST', 'PUT', 'DELETE', 'PATCH', 'OPTIONS']) {
      const a = await fetch(sys.relayUrl + wrong, { method });
      const b = await fetch(sys.relayUrl + unknown, { method });
      expect(a.status, method).toBe(404);
      expect(b.status, method).toBe(404);
      const bodyA = (await a.json()) as { error: { code: string; message: string } };
      const bodyB = (await b.json()) as { error: { code: string; message: string } };
      expect(bodyA.error.code).toBe('not_found');
      expect(bodyA.error.message.replace(wrong, 'P')).toBe(bodyB.error.message.replace(unknown, 'P'));
      expect(a.headers.get('allow')).toBeNull();
    }
    const right = await fetch(hook(), { method: 'PATCH' });
    expect(right.status).toBe(405);
  });

  it('never logs the token', async () => {
    await fetch(hook());
    await fetch(`${sys.relayUrl}/hooks/route/guess-${TOKEN}`);
    expect(sys.rawLogs.join('\n')).not.toContain(TOKEN);
    expect(sys.logs.some((l) => l.path === '/hooks/route/[token]')).toBe(true);
  });
});

describe('routing webhook, text reply and a named member', () => {
  let sys: System;
  beforeAll(async () => {
    sys = await startSystem({ ROUTE_WEBHOOK_TOKEN: TOKEN, ROUTE_REPLY: 'text' }, { simulator: { agents, timing } });
  });
  afterAll(() => sys.close());

  it.each(['GET', 'POST', 'PUT', 'DELETE'] as const)('%s with HTTP import reads the whole plain body', async (method) => {
    sys.sim.routing.configure({ url: `${sys.relayUrl}/hooks/route/${TOKEN}`, method, submission: 'http', import: 'http' });
    const result = await sys.sim.routing.simulateInboundCall({ from: caller });
    expect(result.reason).toBe('routed');
    expect(['manager1', 'manager2']).toContain(result.destination);
    sys.sim.reset();
  });

  it('with nobody free and no fallback, answers non-200 so the service takes its next step', async () => {
    sys.sim.agents.setOnline('manager1', false);
    sys.sim.agents.setOnline('manager2', false);
    sys.sim.routing.configure({ url: `${sys.relayUrl}/hooks/route/${TOKEN}`, method: 'GET', submission: 'http', import: 'http' });
    const result = await sys.sim.routing.simulateInboundCall({ from: caller });
    expect(result).toMatchObject({ reason: 'http_status', status: 503, destination: null });
    sys.sim.reset();
  });
});

describe('routing webhook, custom destination member', () => {
  let sys: System;
  beforeAll(async () => {
    sys = await startSystem({ ROUTE_WEBHOOK_TOKEN: TOKEN, ROUTE_DESTINATION_FIELD: 'phone' }, { simulator: { agents, timing } });
  });
  afterAll(() => sys.close());

  it('answers in the member named in the scheme', async () => {
    sys.sim.routing.configure({ url: `${sys.relayUrl}/hooks/route/${TOKEN}`, method: 'POST', submission: 'json', import: 'json', destinationField: 'phone' });
    const result = await sys.sim.routing.simulateInboundCall({ from: caller });
    expect(result.reason).toBe('routed');
    expect(JSON.parse(await (await fetch(`${sys.relayUrl}/hooks/route/${TOKEN}`)).text())).toHaveProperty('phone');
  });
});

describe('routing webhook, slow SIP status', () => {
  let sys: System;
  beforeAll(async () => {
    sys = await startSystem({ ROUTE_WEBHOOK_TOKEN: TOKEN, ROUTE_FALLBACK: FALLBACK, ROUTE_STATUS_WAIT_MS: '300' }, { simulator: { agents, timing } });
  });
  afterAll(() => sys.close());

  // The service's status comes late: well past ROUTE_STATUS_WAIT_MS (300 ms) and the scheme's timeout (2 s).
  const LATE = { kind: 'delay', ms: 2_500 } as const;

  it('with no status seen yet, answers the fallback inside the scheme timeout', async () => {
    sys.sim.faults.set('sipstatus', { ...LATE, times: 2 });
    sys.sim.routing.configure({
      url: `${sys.relayUrl}/hooks/route/${TOKEN}`,
      method: 'POST',
      submission: 'json',
      import: 'json',
      destinationField: 'destination',
      timeoutSeconds: 2,
    });
    const result = await sys.sim.routing.simulateInboundCall({ from: caller });
    expect(result).toMatchObject({ reason: 'routed', destination: FALLBACK });
  });

  it('with a status seen before, answers from it inside the scheme timeout', async () => {
    // Let the delayed status arrive, then make the service slow again.
    await expect.poll(async () => (await (await fetch(`${sys.relayUrl}/api/status`)).json()).source, { timeout: 10_000 }).not.toBe('unknown');
    // The webhook never asked while the service answered: the status /api/status fetched is enough.
    sys.sim.faults.set('sipstatus', LATE);
    const result = await sys.sim.routing.simulateInboundCall({ from: caller });
    expect(result.reason).toBe('routed');
    expect(['manager1', 'manager2']).toContain(result.destination);
    sys.sim.faults.clear();
  }, 20_000);
});

describe('route pieces', () => {
  it('round robin walks the free logins in order and skips the busy ones', () => {
    const rr = createRoundRobin();
    expect(rr.pick(['b', 'a', 'c'])).toBe('a');
    expect(rr.pick(['a', 'b', 'c'])).toBe('b');
    expect(rr.pick(['a', 'c'])).toBe('c');
    expect(rr.pick(['a', 'b', 'c'])).toBe('a');
    expect(rr.pick([])).toBeNull();
  });

  it('the secret path matches the token only', () => {
    const p = secretPath('/hooks/route/', TOKEN);
    expect(p.match(`/hooks/route/${TOKEN}`)).toEqual({});
    expect(p.label).toBe('/hooks/route/[token]');
    for (const bad of [`/hooks/route/${TOKEN}x`, `/hooks/route/${TOKEN.slice(1)}`, '/hooks/route/', `/x/hooks/route/${TOKEN}`, `/hooks/route/${TOKEN}/`]) {
      expect(p.match(bad), bad).toBeNull();
    }
  });
});

describe('routing webhook disabled', () => {
  let sys: System;
  beforeAll(async () => {
    sys = await startSystem({}, { simulator: { agents, timing } });
  });
  afterAll(() => sys.close());

  it('without ROUTE_WEBHOOK_TOKEN the path does not exist', async () => {
    const scheme: RoutingScheme = { url: `${sys.relayUrl}/hooks/route/${TOKEN}`, method: 'GET', submission: 'http', import: 'http' };
    sys.sim.routing.configure(scheme);
    const result = await sys.sim.routing.simulateInboundCall({ from: caller });
    expect(result).toMatchObject({ reason: 'http_status', status: 404 });
  });
});
