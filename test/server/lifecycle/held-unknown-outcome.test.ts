// An outcome that is unknown (the connection broke or timed out after the request was sent) is
// never retried blindly: after the ring time the relay looks for the call in /calls/list (that
// number, from the attempt on). There → placed, no second call. Not there → placed once more, once;
// a second unknown with no call in the log fails the job. The simulator's fault switches make the
// service act and then break its reply (`handled`), or break it before acting.
import { describe, expect, it } from 'vitest';
import { callbackCalls, type System } from '../../support/system.ts';
import { callsSettled, callsTo, heldJobFor, heldRelayPerTest, until } from '../../support/held-calls.ts';

const T0 = new Date('2026-11-23T08:00:00Z');
const { clock, start: startRelay, crm } = heldRelayPerTest(T0);
const PHONE = '+380501112233';
/** CALL_RING_SECONDS=10 (HELD_ENV): the log is conclusive two ring times after an attempt. */
const CHECK_MS = 20_000;

// No number cooldown: only the unknown-outcome rule may keep a second call from being placed.
const start = (env: Record<string, string> = {}) => startRelay({ LIMIT_NUMBER_COOLDOWN_SECONDS: '0', LIMIT_NUMBER_DAILY: '10', ...env });

async function scheduledNow(sys: System) {
  const job = heldJobFor(PHONE, 'scheduled', clock.ms);
  expect(await sys.relay.app.stores.jobs.add(job, clock.ms - 3_600_000)).toEqual({ ok: true });
  return job.callbackId;
}

describe('an unknown outcome', () => {
  it('the service placed the call and then the reply broke: found in the call log, never placed again', async () => {
    const s = await start();
    const id = await scheduledNow(s);
    s.sim.faults.set('callback', { kind: 'reset', handled: true, times: 1 });
    expect(await s.relay.runner.runOnce()).toBe(1);
    expect(callsTo(s, PHONE)).toHaveLength(1);
    const held = await s.relay.app.stores.jobs.get(id);
    expect(held).toMatchObject({ state: 'pending', dueAt: expect.any(Number) });
    expect(held!.dueAt - clock.ms).toBeGreaterThanOrEqual(CHECK_MS - 1000);
    // Before the ring time has passed nothing is due.
    clock.advance(CHECK_MS - 1_000);
    expect(await s.relay.runner.runOnce()).toBe(0);
    clock.advance(1_000);
    expect(await s.relay.runner.runOnce()).toBe(1);
    expect(callbackCalls(s)).toHaveLength(1);
    expect(callsTo(s, PHONE)).toHaveLength(1);
    const events = await until(() => crm().events.length >= 1 && crm().events, 'placed');
    expect(events.map((e) => e.type)).toEqual(['callback.placed']);
    // Followed to its end (once the simulator's call, on its own real timers, has ended); still one call.
    await callsSettled(s, PHONE);
    for (let i = 0; i < 3; i++) {
      clock.advance(30_000);
      await s.relay.runner.runOnce();
    }
    expect(await s.relay.app.stores.jobs.get(id)).toMatchObject({ state: 'completed', outcome: 'answered' });
    expect(callbackCalls(s)).toHaveLength(1);
    expect(s.logs.some((l) => l.msg === 'held call found in the call log: it was placed, and is not placed again')).toBe(true);
    expect(s.rawLogs.join('\n')).not.toContain('501112233');
  });

  it('the service timed out and placed the call later: found in the call log, never placed again', async () => {
    const s = await start({ UPSTREAM_TIMEOUT_MS: '200' });
    const id = await scheduledNow(s);
    // The service acts when the delay ends, long after the relay gave up waiting.
    s.sim.faults.set('callback', { kind: 'delay', ms: 400, times: 1 });
    expect(await s.relay.runner.runOnce()).toBe(1);
    expect(await s.relay.app.stores.jobs.get(id)).toMatchObject({ state: 'pending' });
    await until(() => callsTo(s, PHONE).length === 1, 'the late call');
    clock.advance(CHECK_MS);
    expect(await s.relay.runner.runOnce()).toBe(1);
    expect(callbackCalls(s)).toHaveLength(1);
    expect(callsTo(s, PHONE)).toHaveLength(1);
  });

  it('the reply broke before the service acted: no call in the log, so it is placed once more — exactly one call', async () => {
    const s = await start();
    const id = await scheduledNow(s);
    s.sim.faults.set('callback', { kind: 'reset', times: 1 });
    expect(await s.relay.runner.runOnce()).toBe(1);
    expect(callsTo(s, PHONE)).toHaveLength(0);
    clock.advance(CHECK_MS);
    expect(await s.relay.runner.runOnce()).toBe(1);
    expect(callbackCalls(s)).toHaveLength(2);
    expect(callsTo(s, PHONE)).toHaveLength(1);
    expect(await s.relay.app.stores.jobs.get(id)).toMatchObject({ state: 'pending', stage: 'following' });
    const events = await until(() => crm().events.length >= 1 && crm().events, 'placed');
    expect(events.map((e) => e.type)).toEqual(['callback.placed']);
  });

  it('placed once more only once: a second unknown with no call in the log fails the job, and the owner is told', async () => {
    const s = await start();
    const id = await scheduledNow(s);
    s.sim.faults.set('callback', { kind: 'reset', times: 2 });
    expect(await s.relay.runner.runOnce()).toBe(1);
    clock.advance(CHECK_MS);
    expect(await s.relay.runner.runOnce()).toBe(1);
    clock.advance(CHECK_MS);
    expect(await s.relay.runner.runOnce()).toBe(1);
    expect(callbackCalls(s)).toHaveLength(2);
    expect(s.sim.calls).toHaveLength(0);
    expect(await s.relay.app.stores.jobs.get(id)).toMatchObject({ state: 'failed', outcome: 'outcome_unknown' });
    const events = await until(() => crm().events.length >= 1 && crm().events, 'failed');
    expect(events.map((e) => [e.type, e.data.reason])).toEqual([['callback.failed', 'outcome_unknown']]);
    clock.advance(600_000);
    expect(await s.relay.runner.runOnce()).toBe(0);
    expect(s.sim.calls).toHaveLength(0);
  });

  it('a refusal by the service is final: failed with upstream_rejected, one request', async () => {
    const s = await start();
    const id = await scheduledNow(s);
    s.sim.faults.set('callback', { kind: 'rpc_error', code: -32010, message: 'outbound ban', times: 1 });
    expect(await s.relay.runner.runOnce()).toBe(1);
    expect(await s.relay.app.stores.jobs.get(id)).toMatchObject({ state: 'failed', outcome: 'upstream_rejected' });
    clock.advance(600_000);
    expect(await s.relay.runner.runOnce()).toBe(0);
    expect(callbackCalls(s)).toHaveLength(1);
  });
});
