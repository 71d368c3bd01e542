// /__sim/… control endpoints (standalone use): the same powers as the Simulator object, over HTTP,
// behind the Auth-key, never faulted.
import { createServer } from 'node:http';
import { afterAll, beforeEach, describe, expect, it } from 'vitest';
import type { SimCall } from '../../server/simulator/index.ts';
import { listen } from '../support/listen.ts';
import { get, jsonOf, start, type RunningSim } from '../support/simulator.ts';

let sim: RunningSim;
beforeEach(async () => {
  if (!sim) sim = await start();
  sim.reset();
  sim.routing.clear();
});
afterAll(() => sim?.close());

function send(method: string, path: string, body?: unknown, key: string | null = sim.authKey): Promise<Response> {
  const headers: Record<string, string> = { 'Content-Type': 'application/json' };
  if (key !== null) headers['Auth-key'] = key;
  return fetch(`${sim.url}${path}`, { method, headers, body: body === undefined ? undefined : JSON.stringify(body) });
}

describe('access', () => {
  it.each([
    ['GET', '/__sim/calls'],
    ['POST', '/__sim/reset'],
    ['POST', '/__sim/faults'],
  ])('%s %s needs the Auth-key', async (method, path) => {
    const body = method === 'GET' ? undefined : {};
    expect((await send(method, path, body, null)).status).toBe(403);
    expect((await send(method, path, body, 'wrong-key-12345')).status).toBe(403);
  });
  it('answers 404 to an unknown control path', async () => {
    expect((await send('GET', '/__sim/nothing')).status).toBe(404);
  });
});

describe('agents', () => {
  it('lists agents and switches one online', async () => {
    const before = (await jsonOf(await send('GET', '/__sim/agents'))) as Array<{ login: string; online: boolean }>;
    expect(before.map((a) => [a.login, a.online])).toEqual([
      ['manager1', true],
      ['manager2', true],
      ['manager3', false],
    ]);
    expect((await send('POST', '/__sim/agents/manager3', { online: true })).status).toBe(200);
    expect(await jsonOf(await get(sim, '/sipstatus/online'))).toEqual(['manager1', 'manager2', 'manager3']);
  });
  it('answers 404 for an unknown agent and 400 for a bad body', async () => {
    expect((await send('POST', '/__sim/agents/ghost', { online: true })).status).toBe(404);
    expect((await send('POST', '/__sim/agents/manager1', { online: 'yes' })).status).toBe(400);
  });
});

describe('faults', () => {
  it('sets, lists and clears a fault; control endpoints are never faulted', async () => {
    expect((await send('POST', '/__sim/faults', { target: '*', fault: { kind: 'status', status: 503 } })).status).toBe(200);
    expect((await get(sim, '/sipstatus/online')).status).toBe(503);
    expect(await jsonOf(await send('GET', '/__sim/faults'))).toEqual({ '*': { kind: 'status', status: 503 } });
    expect((await send('DELETE', '/__sim/faults')).status).toBe(200);
    expect((await get(sim, '/sipstatus/online')).status).toBe(200);
  });
  it('clears one target by name, and refuses an unknown target instead of clearing nothing', async () => {
    sim.faults.set('calls', { kind: 'status', status: 500 });
    sim.faults.set('sipstatus', { kind: 'status', status: 500 });
    const typo = await send('DELETE', '/__sim/faults?target=call');
    expect(typo.status).toBe(400);
    expect(await typo.text()).toContain('unknown fault target');
    expect(await jsonOf(await send('DELETE', '/__sim/faults?target=calls'))).toEqual({ sipstatus: { kind: 'status', status: 500 } });
  });
  it('answers 400 with the reason for a bad fault', async () => {
    const res = await send('POST', '/__sim/faults', { target: 'calls', fault: { kind: 'explode' } });
    expect(res.status).toBe(400);
    expect(await res.text()).toContain('unknown fault kind');
  });
});

describe('call log and seeding', () => {
  it('seeds calls in a period and reads the log', async () => {
    const res = await send('POST', '/__sim/calls/seed', { count: 3, from: '2019-05-01T00:00:00+03:00', to: '2019-05-01T12:00:00+03:00', overrides: { utmCampaign: 'brand' } });
    expect(await jsonOf(res)).toEqual({ seeded: 3 });
    const calls = (await jsonOf(await send('GET', '/__sim/calls'))) as Array<Record<string, unknown>>;
    expect(calls).toHaveLength(3);
    expect(calls.every((c) => c.utmCampaign === 'brand' && c.origin === 'seed')).toBe(true);
    expect(calls[0]?.calldate).toBe('2019-04-30T21:00:00.000Z');
  });
  it('answers 400 to a bad seed body', async () => {
    expect((await send('POST', '/__sim/calls/seed', { count: -1 })).status).toBe(400);
    expect((await send('POST', '/__sim/calls/seed', { count: 200_001 })).status).toBe(400);
    expect(sim.calls).toHaveLength(0);
    expect((await send('POST', '/__sim/calls/seed', { count: 1, from: 'yesterday' })).status).toBe(400);
  });
  it('reset clears the log', async () => {
    sim.seedCalls(2);
    expect(sim.calls).toHaveLength(2);
    expect((await send('POST', '/__sim/reset')).status).toBe(200);
    expect(sim.calls).toHaveLength(0);
  });
});

describe('routing and inbound calls', () => {
  it('configures a scheme and triggers an inbound call', async () => {
    const crm = await listen(createServer((_req, res) => res.end('manager1')));
    try {
      const configured = await send('POST', '/__sim/routing', { url: `${crm.url}/hook`, method: 'GET', submission: 'http', import: 'http', timeoutSeconds: 2 });
      expect(configured.status).toBe(200);
      const res = await send('POST', '/__sim/inbound', { from: '380671234567' });
      expect(await jsonOf(res)).toMatchObject({ destination: 'manager1', reason: 'routed', status: 200 });
      expect((sim.calls[0] as SimCall).callType).toBe('in');
    } finally {
      await crm.close();
    }
  });
  it('answers 400 to a bad scheme', async () => {
    const res = await send('POST', '/__sim/routing', { url: 'http://crm.example/hook', method: 'GET', submission: 'http', import: 'json' });
    expect(res.status).toBe(400);
    expect(await res.text()).toContain('destinationField');
  });
});
