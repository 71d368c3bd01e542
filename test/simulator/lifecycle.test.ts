// Calls live in time: the call-log row and /sipstatus/* follow a callback from IN PROGRESS through
// agent speaking to its final disposition. Waits are on states, never on durations.
import { afterAll, beforeEach, describe, expect, it } from 'vitest';
import type { SimCall } from '../../server/simulator/index.ts';
import { callback, get, jsonOf, start, waitFor, type RunningSim } from '../support/simulator.ts';

let sim: RunningSim;
beforeEach(async () => {
  if (!sim) sim = await start({ timing: { agentAnswerMs: 30, visitorRingMs: 30, talkMs: 1_400 } });
  sim.reset();
});
afterAll(() => sim?.close());

const speaking = async () => (await jsonOf(await get(sim, '/sipstatus/speaking'))) as string[];
const online = async () => (await jsonOf(await get(sim, '/sipstatus/online'))) as string[];
const only = (): SimCall => {
  expect(sim.calls).toHaveLength(1);
  return sim.calls[0] as SimCall;
};
const ended = (call: SimCall) => () => call.state === 'ended';

describe('/sipstatus', () => {
  it('lists online agents and nobody speaking when idle', async () => {
    expect(await online()).toEqual(['manager1', 'manager2']);
    expect(await speaking()).toEqual([]);
  });

  it('follows agents going online and offline', async () => {
    sim.agents.setOnline('manager3', true);
    sim.agents.setOnline('manager1', false);
    expect(await online()).toEqual(['manager2', 'manager3']);
    sim.agents.setOnline('manager2', false);
    sim.agents.setOnline('manager3', false);
    expect(await online()).toEqual([]);
  });

  it('refuses a missing Auth-key with 403', async () => {
    expect((await get(sim, '/sipstatus/online', null)).status).toBe(403);
    expect((await get(sim, '/sipstatus/speaking', 'nope')).status).toBe(403);
  });
});

describe('agent first (manager_dst 1)', () => {
  it('goes IN PROGRESS -> agent speaking -> ANSWERED with billsec', async () => {
    expect((await callback(sim)).status).toBe(200);
    const call = only();
    expect(call.disposition).toBe('IN PROGRESS');
    expect(call.state).toBe('agent_ringing');
    expect(call.agent).toBe('manager1');

    await waitFor('the agent to speak', async () => (await speaking()).includes('manager1'));
    await waitFor('the conversation', () => call.state === 'talking');
    expect(call.disposition).toBe('IN PROGRESS');
    await waitFor('the end', ended(call));
    expect(call.disposition).toBe('ANSWERED');
    expect(call.billsec).toBe(1);
    expect(call.connectedWith).toBe('manager1');
    expect(call.recording).toMatch(/^https:\/\/.+\.ogg\?token=/);
    expect(await speaking()).toEqual([]);
  });

  it("ends CLIENT NO ANSWER for a number ending in '99' (documented convention)", async () => {
    await callback(sim, { callee: '380501234599' });
    const call = only();
    await waitFor('the end', ended(call));
    expect(call.disposition).toBe('CLIENT NO ANSWER');
    expect(call.billsec).toBe(0);
    expect(call.recording).toBe('');
  });

  it('ends NO ANSWER when no agent is online', async () => {
    sim.agents.setOnline('manager1', false);
    sim.agents.setOnline('manager2', false);
    await callback(sim);
    const call = only();
    expect(call.agent).toBeNull();
    await waitFor('the end', ended(call));
    expect(call.disposition).toBe('NO ANSWER');
  });

  it('gives concurrent callbacks different free agents, in turn, and NO ANSWER when all are busy', async () => {
    await callback(sim, { callee: '380501110001' });
    await callback(sim, { callee: '380501110002' });
    await callback(sim, { callee: '380501110003' });
    const [a, b, c] = sim.calls as SimCall[];
    expect([a?.agent, b?.agent, c?.agent]).toEqual(['manager1', 'manager2', null]);
    await waitFor('both agents to speak', async () => (await speaking()).length === 2);
    await waitFor('the third to end', () => c?.state === 'ended');
    expect(c?.disposition).toBe('NO ANSWER');
  });

  it('uses a custom visitorAnswers, called with E.164 including the +', async () => {
    const asked: string[] = [];
    const picky = await start({
      visitorAnswers: (n) => {
        asked.push(n);
        return n.endsWith('42');
      },
    });
    try {
      await callback(picky, { callee: '380501234542' });
      await callback(picky, { callee: '380501234567' });
      const [yes, no] = picky.calls as SimCall[];
      await waitFor('both to end', () => yes?.state === 'ended' && no?.state === 'ended');
      expect([yes?.disposition, no?.disposition]).toEqual(['ANSWERED', 'CLIENT NO ANSWER']);
      expect(asked.sort()).toEqual(['+380501234542', '+380501234567']);
    } finally {
      await picky.close();
    }
  });
});

describe('agent drift (standalone mode)', () => {
  it('is off by default and, when on, changes who is online but never takes the last one', async () => {
    expect(sim.agents.list().map((a) => a.online)).toEqual([true, true, false]);
    const drifting = await start({ agentDrift: { everyMs: 100 } });
    try {
      const initial = JSON.stringify(drifting.agents.list().map((a) => a.online));
      const seen = new Set<string>();
      await waitFor(
        'the online set to drift',
        () => {
          const now = drifting.agents.list().map((a) => a.online);
          expect(now.some(Boolean)).toBe(true);
          seen.add(JSON.stringify(now));
          return seen.size > 1 && JSON.stringify(now) !== initial;
        },
        20_000,
      );
    } finally {
      await drifting.close();
    }
  });
});

describe('logs', () => {
  it('never carry the Auth-key or a full phone number', async () => {
    const lines: object[] = [];
    const logged = await start({ log: (line) => lines.push(line) });
    try {
      await callback(logged, { callee: '380501234567' });
      await get(logged, '/calls/list?filters=caller%3D380501234567');
      await waitFor('the call to end', () => logged.calls.every((c) => c.state === 'ended'));
      const text = JSON.stringify(lines);
      expect(lines.length).toBeGreaterThan(3);
      expect(text).toContain('"msg":"request"');
      expect(text).not.toContain('380501234567');
      expect(text).not.toContain(logged.authKey);
    } finally {
      await logged.close();
    }
  });
});

describe('visitor first (manager_dst 0)', () => {
  it('rings the visitor before any agent is taken', async () => {
    await callback(sim, { manager_dst: 0 });
    const call = only();
    expect(call.state).toBe('visitor_ringing');
    expect(call.agent).toBeNull();
    await waitFor('the agent to speak', async () => (await speaking()).length === 1);
    await waitFor('the end', ended(call));
    expect(call.disposition).toBe('ANSWERED');
  });

  it('ends CLIENT NO ANSWER without ever taking an agent', async () => {
    await callback(sim, { manager_dst: 0, callee: '380501234599' });
    const call = only();
    await waitFor('the end', ended(call));
    expect(call.disposition).toBe('CLIENT NO ANSWER');
    expect(call.agent).toBeNull();
  });
});

describe('reset and close', () => {
  it('reset cancels calls in progress and frees the agents', async () => {
    await callback(sim);
    await waitFor('the agent to speak', async () => (await speaking()).length === 1);
    sim.reset();
    expect(sim.calls).toHaveLength(0);
    expect(await speaking()).toEqual([]);
    expect(sim.agents.list().every((a) => !a.busy)).toBe(true);
  });
});
