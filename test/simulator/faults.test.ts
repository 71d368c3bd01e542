// Fault switches: each kind, each target, `times`, `handled`, '*' and clear(). Faulted requests are
// still recorded.
import { afterAll, beforeEach, describe, expect, it } from 'vitest';
import type { Fault, FaultTarget } from '../../server/simulator/index.ts';
import { callback, get, jsonOf, postJson, start, waitFor, type RunningSim } from '../support/simulator.ts';

let sim: RunningSim;
beforeEach(async () => {
  if (!sim) sim = await start({ timing: { agentAnswerMs: 60_000, visitorRingMs: 60_000, talkMs: 60_000 } });
  sim.reset();
});
afterAll(() => sim?.close());

/** One request per target, as a relay would send it. */
const hit: Record<Exclude<FaultTarget, '*'>, () => Promise<Response>> = {
  callback: () => callback(sim),
  outward_call: () => postJson(sim, '/callback/outward_call', { extension: sim.officeLine, destination: '380501234567' }),
  sipstatus: () => get(sim, '/sipstatus/online'),
  calls: () => get(sim, '/calls/list'),
};
const targets = Object.keys(hit) as Array<Exclude<FaultTarget, '*'>>;

describe.each(targets)('target %s', (target) => {
  it('reset destroys the socket without an answer, and the request is still recorded', async () => {
    sim.faults.set(target, { kind: 'reset' });
    await expect(hit[target]()).rejects.toThrow();
    expect(sim.requests).toHaveLength(1);
    expect(sim.calls).toHaveLength(0);
  });

  it.each([500, 429, 503])('status %i answers that status with the given body', async (status) => {
    sim.faults.set(target, { kind: 'status', status, body: 'upstream exploded', retryAfter: 7 });
    const res = await hit[target]();
    expect(res.status).toBe(status);
    expect(res.headers.get('retry-after')).toBe('7');
    expect(await res.text()).toBe('upstream exploded');
  });

  it('html answers 200 with an HTML page', async () => {
    sim.faults.set(target, { kind: 'html' });
    const res = await hit[target]();
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toMatch(/^text\/html/);
    expect(await res.text()).toMatch(/^<!doctype html>/i);
  });

  it('truncated answers 200 application/json that does not parse', async () => {
    sim.faults.set(target, { kind: 'truncated' });
    const res = await hit[target]();
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toMatch(/^application\/json/);
    const text = await res.text();
    expect(text.length).toBeGreaterThan(0);
    expect(() => JSON.parse(text)).toThrow();
  });

  it('delay holds the answer back, then answers normally', async () => {
    sim.faults.set(target, { kind: 'delay', ms: 1_000 });
    let settled = false;
    const pending = hit[target]().finally(() => {
      settled = true;
    });
    await waitFor('the request to arrive', () => sim.requests.length === 1);
    // A never-faulted control endpoint answers meanwhile, so an ignored delay would have settled by now.
    expect((await get(sim, '/__sim/agents')).status).toBe(200);
    expect(settled).toBe(false);
    const res = await pending;
    expect(res.status).toBe(200);
    await jsonOf(res);
  });

  it("'*' applies when the target has no fault of its own", async () => {
    sim.faults.set('*', { kind: 'status', status: 503 });
    expect((await hit[target]()).status).toBe(503);
  });
});

describe('rpc_error', () => {
  it('answers 200 with a JSON-RPC error carrying the request id', async () => {
    sim.faults.set('callback', { kind: 'rpc_error', code: -32099, message: 'Outbound calls are banned' });
    const res = await callback(sim);
    expect(res.status).toBe(200);
    expect(await jsonOf(res)).toEqual({ jsonrpc: '2.0', id: 777, error: { code: -32099, message: 'Outbound calls are banned' } });
    expect(sim.calls).toHaveLength(0);
  });
  it('has a default code and message', async () => {
    sim.faults.set('callback', { kind: 'rpc_error' });
    const body = (await jsonOf(await callback(sim))) as { id: unknown; error: { code: number; message: string } };
    expect(body.id).toBe(777);
    expect(Number.isInteger(body.error.code)).toBe(true);
    expect(body.error.message.length).toBeGreaterThan(0);
  });
});

describe('hang', () => {
  it('never answers until the simulator closes', async () => {
    const own = await start();
    own.faults.set('sipstatus', { kind: 'hang' });
    let settled = false;
    const pending = get(own, '/sipstatus/online').finally(() => {
      settled = true;
    });
    await waitFor('the request to arrive', () => own.requests.length === 1);
    // A healthy endpoint still answers meanwhile: only the faulted request hangs.
    own.faults.clear();
    expect((await get(own, '/sipstatus/online')).status).toBe(200);
    expect(settled).toBe(false);
    await own.close();
    await expect(pending).rejects.toThrow();
  });
});

describe('times, handled, clear, validation', () => {
  it('times limits the fault to the next N requests', async () => {
    sim.faults.set('sipstatus', { kind: 'status', status: 500, times: 2 });
    expect((await get(sim, '/sipstatus/online')).status).toBe(500);
    expect((await get(sim, '/sipstatus/speaking')).status).toBe(500);
    expect((await get(sim, '/sipstatus/online')).status).toBe(200);
    expect(sim.faults.list()).toEqual({});
  });

  it('without handled the service does nothing (no call placed)', async () => {
    sim.faults.set('callback', { kind: 'status', status: 500 });
    await callback(sim);
    expect(sim.calls).toHaveLength(0);
  });

  it('with handled the call is placed although the answer is lost', async () => {
    sim.faults.set('callback', { kind: 'reset', handled: true });
    await expect(callback(sim)).rejects.toThrow();
    expect(sim.calls).toHaveLength(1);
  });

  it('truncated with handled cuts the real answer', async () => {
    sim.faults.set('callback', { kind: 'truncated', handled: true });
    const text = await (await callback(sim)).text();
    expect(text.startsWith('{"jsonrpc":"2.0","id":777')).toBe(true);
    expect(() => JSON.parse(text)).toThrow();
    expect(sim.calls).toHaveLength(1);
  });

  it('delay without handled places the call only when the delay ends', async () => {
    sim.faults.set('callback', { kind: 'delay', ms: 1_000 });
    const pending = callback(sim);
    await waitFor('the request to arrive', () => sim.requests.length === 1);
    expect(sim.calls).toHaveLength(0);
    expect((await pending).status).toBe(200);
    expect(sim.calls).toHaveLength(1);
  });

  it('a target fault wins over *', async () => {
    sim.faults.set('*', { kind: 'status', status: 503 });
    sim.faults.set('calls', { kind: 'status', status: 429 });
    expect((await get(sim, '/calls/list')).status).toBe(429);
    expect((await get(sim, '/sipstatus/online')).status).toBe(503);
  });

  it('clear(target) and clear() switch faults off', async () => {
    sim.faults.set('calls', { kind: 'status', status: 500 });
    sim.faults.set('sipstatus', { kind: 'status', status: 500 });
    sim.faults.clear('calls');
    expect((await get(sim, '/calls/list')).status).toBe(200);
    expect((await get(sim, '/sipstatus/online')).status).toBe(500);
    sim.faults.clear();
    expect((await get(sim, '/sipstatus/online')).status).toBe(200);
  });

  it('clear(target) refuses an unknown target instead of clearing nothing', () => {
    sim.faults.set('calls', { kind: 'status', status: 500 });
    expect(() => sim.faults.clear('call' as FaultTarget)).toThrow(/unknown fault target/);
    expect(sim.faults.list()).toEqual({ calls: { kind: 'status', status: 500 } });
  });

  it('reset() clears faults', async () => {
    sim.faults.set('calls', { kind: 'status', status: 500 });
    sim.reset();
    expect((await get(sim, '/calls/list')).status).toBe(200);
  });

  it.each([
    ['an unknown target', 'everything', { kind: 'reset' }],
    ['an unknown kind', 'calls', { kind: 'explode' }],
    ['a status outside 400..599', 'calls', { kind: 'status', status: 200 }],
    ['a negative delay', 'calls', { kind: 'delay', ms: -1 }],
    ['times 0', 'calls', { kind: 'reset', times: 0 }],
  ])('refuses %s with a clear error', (_what, target, fault) => {
    expect(() => sim.faults.set(target as FaultTarget, fault as Fault)).toThrow(/fault/);
  });
});
