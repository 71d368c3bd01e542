// GET /api/callback/<requestId>: the visitor's call outcome, stepping through the simulator's call
// lifecycle (tiny timings), with the shared, bounded polling of the service.
import { describe, expect, it, type TestContext } from 'vitest';
import { ORIGIN, postCallback } from '../../support/post-callback.ts';
import { startSystem, type System } from '../../support/system.ts';
import type { CallbackProgress, CallOutcome } from '../../../server/src/contract/contract.ts';
import { liveOutcome, outcomeOfRow } from '../../../server/src/callback/progress/call-outcome.ts';
import { createAcceptedCalls, sameNumber } from '../../../server/src/callback/progress/accepted-calls.ts';
import type { CallTiming, SimulatorOptions } from '../../../server/simulator/index.ts';

const OTHER = 'https://other.example';

// No re-dials: a missed call's last step is then "missed". (With re-dials, the widget is told of the
// re-dial to come instead: test/server/lifecycle/held-redial.test.ts.) Each test has a system of its
// own, closed when it finishes, so the tests that watch a call live in real time run side by side.
async function start(test: TestContext, timing: Partial<CallTiming>, env: Record<string, string> = {}, simulator: SimulatorOptions = {}) {
  const system = await startSystem({ ALLOWED_ORIGINS: `${ORIGIN},${OTHER}`, OUTCOME_POLL_MS: '250', REDIAL_ATTEMPTS: '0', ...env }, { simulator: { ...simulator, timing } });
  test.onTestFinished(() => system.close());
  return system;
}

async function placeCall(sys: System, phone: string): Promise<string> {
  const res = await postCallback(sys, { phone, attribution: { utmSource: 'google', clientId: '1907690628.1747750782' } });
  expect(res.status).toBe(202);
  return res.json.requestId!;
}

function progressOf(sys: System, requestId: string, origin: string | null = ORIGIN): Promise<Response> {
  return fetch(`${sys.relayUrl}/api/callback/${requestId}`, { headers: origin ? { origin } : {} });
}

/** Polls like the widget until a final outcome; returns the distinct outcomes in the order seen. */
async function watch(sys: System, requestId: string, limitMs = 15_000): Promise<CallOutcome[]> {
  const seen: CallOutcome[] = [];
  const until = Date.now() + limitMs;
  while (Date.now() < until) {
    const res = await progressOf(sys, requestId);
    expect(res.status).toBe(200);
    const body = (await res.json()) as CallbackProgress;
    expect(body.requestId).toBe(requestId);
    if (seen.at(-1) !== body.outcome) seen.push(body.outcome);
    if (body.pollAfterMs === undefined) return seen;
    expect(body.pollAfterMs).toBeGreaterThan(0);
    await new Promise((r) => setTimeout(r, 60));
  }
  throw new Error(`no final outcome; saw ${seen.join(' → ')}`);
}

/** `steps` in order, each at most once, nothing else, ending with the last one. */
function expectSteps(seen: CallOutcome[], allowed: CallOutcome[], required: CallOutcome[]) {
  expect(
    seen.every((o) => allowed.includes(o)),
    seen.join(' → '),
  ).toBe(true);
  const order = seen.map((o) => allowed.indexOf(o));
  expect(order, seen.join(' → ')).toEqual([...order].sort((a, b) => a - b));
  for (const r of required) expect(seen, seen.join(' → ')).toContain(r);
  expect(seen.at(-1)).toBe(required.at(-1));
}

describe.concurrent('call outcomes through the call lifecycle', () => {
  it('an answered call: agent ringing → ringing you → completed', async (test) => {
    const sys = await start(test, { agentAnswerMs: 700, visitorRingMs: 700, talkMs: 300 });
    const id = await placeCall(sys, '050 123 45 67');
    const seen = await watch(sys, id);
    expectSteps(seen, ['accepted', 'agent_ringing', 'ringing_you', 'connected', 'completed'], ['agent_ringing', 'ringing_you', 'completed']);
  });

  it('a long conversation shows connected once the ring time has passed', async (test) => {
    const sys = await start(test, { agentAnswerMs: 300, visitorRingMs: 300, talkMs: 2_500 }, { CALL_RING_SECONDS: '1' });
    const id = await placeCall(sys, '050 123 45 68');
    const seen = await watch(sys, id);
    expectSteps(seen, ['accepted', 'agent_ringing', 'ringing_you', 'connected', 'completed'], ['ringing_you', 'connected', 'completed']);
  });

  it('a visitor who never answers (numbers ending in 99): ringing you → missed', async (test) => {
    const sys = await start(test, { agentAnswerMs: 500, visitorRingMs: 700, talkMs: 300 });
    const id = await placeCall(sys, '050 123 45 99');
    const seen = await watch(sys, id);
    expectSteps(seen, ['accepted', 'agent_ringing', 'ringing_you', 'missed'], ['ringing_you', 'missed']);
    expect(sys.sim.calls.at(-1)!.disposition).toBe('CLIENT NO ANSWER');
  });

  it('no agent free to pick up: missed, and the visitor was never told their phone rings', async (test) => {
    const sys = await start(test, { agentAnswerMs: 500, visitorRingMs: 300, talkMs: 300 }, {}, { agents: [{ login: 'solo', number: '380441110001', online: false }] });
    const id = await placeCall(sys, '050 123 45 69');
    const seen = await watch(sys, id);
    expectSteps(seen, ['accepted', 'agent_ringing', 'missed'], ['missed']);
  });

  it('visitor first (CALLBACK_MANAGER_DST=0): ringing you → completed', async (test) => {
    const sys = await start(test, { agentAnswerMs: 500, visitorRingMs: 500, talkMs: 300 }, { CALLBACK_MANAGER_DST: '0' });
    const id = await placeCall(sys, '050 123 45 70');
    const seen = await watch(sys, id);
    expectSteps(seen, ['accepted', 'ringing_you', 'connected', 'completed'], ['ringing_you', 'completed']);
    expect(seen).not.toContain('agent_ringing');
  });

  it('two callbacks at once each end with their own outcome', async (test) => {
    const sys = await start(test, { agentAnswerMs: 400, visitorRingMs: 600, talkMs: 300 });
    const [answered, unanswered] = [await placeCall(sys, '050 123 45 80'), await placeCall(sys, '050 123 45 99')];
    const [a, b] = await Promise.all([watch(sys, answered), watch(sys, unanswered)]);
    expect(a.at(-1)).toBe('completed');
    expect(b.at(-1)).toBe('missed');
    expect(a).toContain('ringing_you');
    expect(b).toContain('ringing_you');
  });

  // Alone: it must see the agent speak inside a 3 s window, from SIP status polls only.
  it.sequential('survives a failing call log: steps from SIP status, no server error', async (test) => {
    const sys = await start(test, { agentAnswerMs: 300, visitorRingMs: 3_000, talkMs: 300 });
    sys.sim.faults.set('calls', { kind: 'status', status: 503 });
    const id = await placeCall(sys, '050 123 45 71');
    await expect.poll(async () => ((await (await progressOf(sys, id)).json()) as CallbackProgress).outcome, { timeout: 5_000, interval: 100 }).toBe('ringing_you');
    sys.sim.faults.clear();
    expect((await watch(sys, id)).at(-1)).toBe('completed');
  });
});

describe('load on the service', () => {
  it('many visitors asking at once cost one call-log request; nobody asking costs none', async (test) => {
    const sys = await start(test, { agentAnswerMs: 5_000, visitorRingMs: 5_000, talkMs: 300 }, { OUTCOME_POLL_MS: '60000' });
    const ids = [await placeCall(sys, '050 123 45 72'), await placeCall(sys, '050 123 45 73')];
    const logRequests = () => sys.sim.requests.filter((r) => r.path.startsWith('/calls/list')).length;
    expect(logRequests()).toBe(0);
    const answers = await Promise.all(Array.from({ length: 40 }, (_, i) => progressOf(sys, ids[i % 2]!)));
    expect(answers.every((r) => r.status === 200)).toBe(true);
    expect(logRequests()).toBe(1);
    await Promise.all(Array.from({ length: 20 }, () => progressOf(sys, ids[0]!)));
    expect(logRequests()).toBe(1);
  });
});

describe('GET /api/callback/<requestId> refusals', () => {
  it('unknown or malformed ids are 404 not_found', async (test) => {
    const sys = await start(test, {});
    for (const id of ['3f1c2d9e-0000-4000-8000-000000000000', 'not-a-uuid']) {
      const res = await progressOf(sys, id);
      expect(res.status, id).toBe(404);
      expect(((await res.json()) as { error: { code: string } }).error.code).toBe('not_found');
    }
    // An encoded slash is refused before routing (a proxy in front could read it as a real one).
    const traversal = await progressOf(sys, '..%2F..%2Fetc');
    expect(traversal.status).toBe(400);
    expect(((await traversal.json()) as { error: { code: string } }).error.code).toBe('invalid_request');
  });

  it('a foreign origin is refused; another allowed site cannot see the call; CORS for the placing site', async (test) => {
    const sys = await start(test, { agentAnswerMs: 5_000 });
    const id = await placeCall(sys, '050 123 45 74');
    expect((await progressOf(sys, id, 'https://evil.example')).status).toBe(403);
    expect((await progressOf(sys, id, OTHER)).status).toBe(404);
    const ok = await progressOf(sys, id, ORIGIN);
    expect(ok.status).toBe(200);
    expect(ok.headers.get('access-control-allow-origin')).toBe(ORIGIN);
    expect(ok.headers.get('cache-control')).toBe('no-store');
    // Like every /api route that reads a visitor's own data, it needs an allowed Origin: without one
    // it is refused, unless a browser says the request comes from the relay's own pages.
    const bare = await progressOf(sys, id, null);
    expect(bare.status).toBe(403);
    expect(((await bare.json()) as { error: { code: string } }).error.code).toBe('origin_not_allowed');
  });

  it('never carries the phone number', async (test) => {
    const sys = await start(test, { agentAnswerMs: 5_000 });
    const id = await placeCall(sys, '050 123 45 75');
    const text = await (await progressOf(sys, id)).text();
    expect(text).not.toMatch(/501234575/);
  });
});

describe('outcome pieces', () => {
  it('dispositions map to final outcomes', () => {
    expect(outcomeOfRow({ disposition: 'ANSWERED', billsec: 11 })).toBe('completed');
    expect(outcomeOfRow({ disposition: 'REPEATED', billsec: 0 })).toBe('completed');
    expect(outcomeOfRow({ disposition: 'BUSY', billsec: 3 })).toBe('completed');
    for (const d of ['NO ANSWER', 'CLIENT NO ANSWER', 'BUSY', 'FAILED', 'VOICEMAIL', 'NO EXTENSION', 'WRONG EXTENSION', 'SOMETHING NEW']) {
      expect(outcomeOfRow({ disposition: d, billsec: 0 }), d).toBe('missed');
    }
    expect(outcomeOfRow({ disposition: 'IN PROGRESS', billsec: 0 })).toBeNull();
    expect(outcomeOfRow({ disposition: '', billsec: 0 })).toBeNull();
  });

  it('live steps from SIP facts', () => {
    const base = { managerDst: 1 as const, ringMs: 30_000, now: 100_000 };
    expect(liveOutcome({ ...base, observed: false, agentSpeakingSince: null })).toBe('accepted');
    expect(liveOutcome({ ...base, observed: true, agentSpeakingSince: null })).toBe('agent_ringing');
    expect(liveOutcome({ ...base, observed: true, agentSpeakingSince: 90_000 })).toBe('ringing_you');
    expect(liveOutcome({ ...base, observed: true, agentSpeakingSince: 60_000 })).toBe('connected');
    expect(liveOutcome({ ...base, managerDst: 0, observed: true, agentSpeakingSince: null })).toBe('ringing_you');
    expect(liveOutcome({ ...base, managerDst: 0, observed: true, agentSpeakingSince: 99_000 })).toBe('connected');
  });

  it('numbers match with or without the country code', () => {
    expect(sameNumber('380501234567', '0501234567')).toBe(true);
    expect(sameNumber('+38 (050) 123-45-67', '380501234567')).toBe(true);
    expect(sameNumber('380501234567', '380501234568')).toBe(false);
    expect(sameNumber('1234', '1234567891234')).toBe(false);
    const accepted = createAcceptedCalls(2);
    accepted.add({ callbackId: 'a', digits: '380501234567', acceptedAt: new Date(), origin: ORIGIN });
    expect(accepted.hasNumber('0501234567')).toBe(true);
    accepted.add({ callbackId: 'b', digits: '380501111111', acceptedAt: new Date(), origin: ORIGIN });
    accepted.add({ callbackId: 'c', digits: '380502222222', acceptedAt: new Date(), origin: ORIGIN });
    expect(accepted.size).toBe(2);
    expect(accepted.hasNumber('380501234567')).toBe(false);
  });
});
