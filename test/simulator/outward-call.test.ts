// Contract of POST /callback/outward_call (the simple callback): form-encoded or JSON bodies,
// extension connected to the project, destination a number or SIP login, 400 error objects.
import { afterAll, beforeEach, describe, expect, it } from 'vitest';
import type { SimCall } from '../../server/simulator/index.ts';
import { jsonOf, postJson, start, waitFor, type RunningSim } from '../support/simulator.ts';

let sim: RunningSim;
beforeEach(async () => {
  if (!sim) sim = await start();
  sim.reset();
});
afterAll(() => sim?.close());

function postForm(fields: Record<string, string>, key: string | null = sim.authKey): Promise<Response> {
  const headers: Record<string, string> = { 'Content-Type': 'application/x-www-form-urlencoded' };
  if (key !== null) headers['Auth-key'] = key;
  return fetch(`${sim.url}/callback/outward_call`, { method: 'POST', headers, body: new URLSearchParams(fields).toString() });
}

describe('success', () => {
  it('accepts a form-encoded body from the office line and places a callback', async () => {
    const res = await postForm({ extension: sim.officeLine, destination: '380501234567' });
    expect(res.status).toBe(200);
    const call = sim.calls[0] as SimCall;
    expect(call).toMatchObject({ origin: 'outward_call', callType: 'callback', visitor: '380501234567', dst: sim.officeLine, disposition: 'IN PROGRESS' });
    await waitFor('the end', () => call.state === 'ended');
    expect(call.disposition).toBe('ANSWERED');
  });

  it('accepts a JSON body with the same names', async () => {
    expect((await postJson(sim, '/callback/outward_call', { extension: `+${sim.officeLine}`, destination: '+380501234567' })).status).toBe(200);
    expect(sim.calls).toHaveLength(1);
  });

  it('rings the agent whose number is the extension', async () => {
    expect((await postForm({ extension: '380441110002', destination: '380501234567' })).status).toBe(200);
    expect(sim.calls[0]?.agent).toBe('manager2');
  });

  it('accepts a SIP login of the project as destination', async () => {
    expect((await postForm({ extension: sim.officeLine, destination: 'manager2' })).status).toBe(200);
    const call = sim.calls[0] as SimCall;
    expect(call.visitor).toBe('manager2');
    await waitFor('the end', () => call.state === 'ended');
    expect(call.disposition).toBe('ANSWERED');
  });
});

describe('errors', () => {
  it('refuses a missing Auth-key with 403', async () => {
    expect((await postForm({ extension: sim.officeLine, destination: '380501234567' }, null)).status).toBe(403);
  });
  it.each([
    ['no extension', { destination: '380501234567' }],
    ['no destination', { extension: '380441112233' }],
    ['an extension not connected to the project', { extension: '380441119999', destination: '380501234567' }],
    ['an extension in national format', { extension: '0441112233', destination: '380501234567' }],
    ['a destination in national format', { extension: '380441112233', destination: '0501234567' }],
    ['an unknown SIP login as destination', { extension: '380441112233', destination: 'stranger' }],
    ['a banned destination', { extension: '380441112233', destination: '380900123456' }],
  ])('answers 400 with an error object for %s', async (_what, fields) => {
    const res = await postForm(fields);
    expect(res.status).toBe(400);
    expect(await jsonOf(res)).toEqual({ error: { code: 400, message: expect.any(String) } });
    expect(sim.calls).toHaveLength(0);
  });
  it('answers 400 to a JSON body that is not an object', async () => {
    expect((await postJson(sim, '/callback/outward_call', '[1,2]')).status).toBe(400);
    expect(sim.calls).toHaveLength(0);
  });
  it('answers 405 to GET', async () => {
    const res = await fetch(`${sim.url}/callback/outward_call`, { headers: { 'Auth-key': sim.authKey } });
    expect(res.status).toBe(405);
    expect(res.headers.get('allow')).toBe('POST');
  });
  it('answers 404 to an unknown path', async () => {
    const res = await fetch(`${sim.url}/callback/inward_call`, { headers: { 'Auth-key': sim.authKey } });
    expect(res.status).toBe(404);
  });
});
