// Shared by the simulator's contract tests: a simulator on 127.0.0.1:0 with tiny call timing, and
// small request helpers that speak the service's API as the spec describes it (real HTTP via fetch).
import { startSimulator, type Simulator, type SimulatorOptions } from '../../server/simulator/index.ts';

export type RunningSim = Simulator & { url: string };

/** Tiny phases: a whole call lives for a few tens of milliseconds. */
export const TINY_TIMING = { agentAnswerMs: 15, visitorRingMs: 15, talkMs: 15 };

export function start(options: SimulatorOptions = {}): Promise<RunningSim> {
  return startSimulator({ timing: TINY_TIMING, ...options, port: 0, host: '127.0.0.1' });
}

export function get(sim: RunningSim, path: string, key: string | null = sim.authKey): Promise<Response> {
  return fetch(sim.url + path, { headers: key === null ? {} : { 'Auth-key': key } });
}

export function postJson(sim: RunningSim, path: string, body: unknown, key: string | null = sim.authKey): Promise<Response> {
  const headers: Record<string, string> = { 'Content-Type': 'application/json' };
  if (key !== null) headers['Auth-key'] = key;
  return fetch(sim.url + path, { method: 'POST', headers, body: typeof body === 'string' ? body : JSON.stringify(body) });
}

/** A valid extended-callback params object, as the official sample shapes it; override per test. */
export function callbackParams(sim: RunningSim, overrides: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    caller: sim.officeLine,
    callee: '380501234567',
    caller_type: 'default',
    callee_type: 'default',
    direction: 'out',
    manager_dst: 1,
    projectId: sim.projectId,
    clientIp: '203.0.113.7',
    utmSource: 'google',
    utmMedium: 'cpc',
    utmCampaign: 'brand',
    utmTerm: 'call me',
    utmContent: 'ad-1',
    clientId: '576047607.1537442595',
    clientUserAgent: 'Mozilla/5.0 (Test)',
    ...overrides,
  };
}

export function rpcBody(params: unknown, id: unknown = 777, method = 'Api\\V2\\Callback.external'): Record<string, unknown> {
  return { jsonrpc: '2.0', id, method, params };
}

export function callback(sim: RunningSim, overrides: Record<string, unknown> = {}, key: string | null = sim.authKey): Promise<Response> {
  return postJson(sim, '/a/v2', rpcBody(callbackParams(sim, overrides)), key);
}

/** Polls until `check` returns true; fails with `what` if it never does (a state wait, not a timing assertion). */
export async function waitFor(what: string, check: () => boolean | Promise<boolean>, limitMs = 5_000): Promise<void> {
  const until = Date.now() + limitMs;
  while (Date.now() < until) {
    if (await check()) return;
    await new Promise((r) => setTimeout(r, 5));
  }
  throw new Error(`timed out waiting for: ${what}`);
}

export async function jsonOf(res: Response): Promise<unknown> {
  const body = await res.text();
  try {
    return JSON.parse(body);
  } catch {
    throw new Error(`expected JSON, got HTTP ${res.status}: ${body.slice(0, 200)}`);
  }
}
