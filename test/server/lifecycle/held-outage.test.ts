// Held through an outage: the service refuses connections (a gate in front of the simulator is
// closed), the visitor gets 202 queued, and the runner places the call as soon as the service
// answers again: exactly one call. While it stays down the runner backs off (capped, jittered) and
// gives up at QUEUE_MAX_WAIT_SECONDS or closing time, telling the owner (callback.failed, verified
// with the Standard Webhooks package). Time is the test's clock; the runner runs when asked.
import { afterEach, describe, expect, it } from 'vitest';
import type { System } from '../../support/system.ts';
import { callsSettled, callsTo, heldRelayPerTest, manualTimers, ORIGIN, startGate, until } from '../../support/held-calls.ts';
import { postCallback } from '../../support/post-callback.ts';

// Monday 2026-11-23 10:00 in Kyiv: the office (Mon-Fri 09-18) is open.
const MONDAY_10 = new Date('2026-11-23T08:00:00Z');
const { clock, start: startRelay, crm } = heldRelayPerTest(MONDAY_10);
const PHONE = '+380507654321';

let gate: Awaited<ReturnType<typeof startGate>> | undefined;
afterEach(async () => {
  await gate?.down();
  gate = undefined;
});

async function start(env: Record<string, string> = {}) {
  gate = await startGate();
  const s = await startRelay(
    {
      WORKING_HOURS: 'Mon-Fri 09:00-18:00',
      TIMEZONE: 'Europe/Kyiv',
      CALLTRACKING_BASE_URL: gate.url,
      CALLTRACKING_AUTH_KEY: 'sim-auth-key-0123456789',
      CALLTRACKING_PROJECT_ID: '100500',
      CALLBACK_CALLER: '380441112233',
      ...env,
    },
    { runner: { timers: manualTimers(clock), random: () => 1 } },
  );
  gate.target = s.sim.url;
  return { s, crm: crm(), gate };
}

async function requestCall(sys: System): Promise<string> {
  const res = await postCallback(sys, { phone: PHONE, consent: true, attribution: { utmSource: 'google' } });
  const body = res.json as { status: string; requestId: string };
  expect({ http: res.status, status: body.status }).toEqual({ http: 202, status: 'queued' });
  return body.requestId;
}

/** Runs the runner until the job is no longer pending, moving the clock to each due time; the delays between tries. */
async function runUntilOver(sys: System, id: string): Promise<number[]> {
  const delays: number[] = [];
  for (let i = 0; i < 50; i++) {
    expect(await sys.relay.runner.runOnce()).toBe(1);
    const job = (await sys.relay.app.stores.jobs.get(id))!;
    if (job.state !== 'pending') return delays;
    delays.push((job.dueAt - clock.ms) / 1000);
    clock.set(job.dueAt);
  }
  throw new Error('the job never ended');
}

describe('held through an outage', () => {
  it('the service down, then back: the queued call is placed once it answers, exactly once', async () => {
    const { s, crm, gate } = await start();
    await gate.down();
    const id = await requestCall(s);
    // Down: each try reaches nobody, and the next waits longer.
    expect(await s.relay.runner.runOnce()).toBe(1);
    expect(await s.relay.app.stores.jobs.get(id)).toMatchObject({ state: 'pending', stage: 'queued', dueAt: clock.ms + 5_000 });
    clock.advance(5_000);
    expect(await s.relay.runner.runOnce()).toBe(1);
    expect(await s.relay.app.stores.jobs.get(id)).toMatchObject({ state: 'pending', stage: 'queued', dueAt: clock.ms + 10_000 });
    // Not due yet: nothing is claimed.
    clock.advance(9_999);
    expect(await s.relay.runner.runOnce()).toBe(0);
    await gate.up();
    clock.advance(1);
    expect(await s.relay.runner.runOnce()).toBe(1);
    expect(callsTo(s, PHONE)).toHaveLength(1);
    expect(callsTo(s, PHONE)[0]).toMatchObject({ utmSource: 'google', clientIp: '127.0.0.1' });

    // The placed call is followed to its end, and never placed again.
    await callsSettled(s, PHONE);
    for (let i = 0; i < 3; i++) {
      clock.advance(30_000);
      await s.relay.runner.runOnce();
    }
    expect(await s.relay.app.stores.jobs.get(id)).toMatchObject({ state: 'completed', outcome: 'answered' });
    expect(callsTo(s, PHONE)).toHaveLength(1);
    // The visitor's widget can follow it like any accepted call.
    const progress = await fetch(`${s.relayUrl}/api/callback/${id}`, { headers: { origin: ORIGIN } });
    expect(progress.status).toBe(200);
    expect(await progress.json()).toMatchObject({ requestId: id, outcome: 'completed' });

    const events = await until(() => crm.events.length >= 2 && crm.events, 'queued and placed');
    expect(events.map((e) => e.type)).toEqual(['callback.queued', 'callback.placed']);
    expect(events[1]!.data).toMatchObject({ callbackId: id, phone: PHONE, attribution: { utmSource: 'google' } });
  });

  it('backs off exponentially, capped at a minute, and gives up at QUEUE_MAX_WAIT_SECONDS: failed, the owner told, no call', async () => {
    const { s, crm, gate } = await start({ QUEUE_MAX_WAIT_SECONDS: '300' });
    await gate.down();
    const queuedAt = clock.ms;
    const id = await requestCall(s);
    const delays = await runUntilOver(s, id);
    expect(delays).toEqual([5, 10, 20, 40, 60, 60, 60, 45]);
    expect(clock.ms - queuedAt).toBe(300_000);
    expect(await s.relay.app.stores.jobs.get(id)).toMatchObject({ state: 'failed', outcome: 'upstream_unavailable' });
    expect(s.sim.calls).toHaveLength(0);
    const events = await until(() => crm.events.length >= 2 && crm.events, 'queued and failed');
    expect(events.map((e) => [e.type, e.data.reason])).toEqual([
      ['callback.queued', null],
      ['callback.failed', 'upstream_unavailable'],
    ]);
    expect(events[1]!.data).toMatchObject({ callbackId: id, phone: PHONE });
    const metrics = await (await fetch(`${s.relayUrl}/metrics`)).text();
    expect(metrics).toMatch(/dialback_held_calls_total\{kind="queued",outcome="retry"\} 8/);
    expect(metrics).toMatch(/dialback_held_calls_total\{kind="queued",outcome="failed"\} 1/);
  });

  it('gives up at closing time: a queued call is never placed after the office closes', async () => {
    clock.set(new Date('2026-11-23T15:59:50Z')); // 17:59:50 in Kyiv
    const { s, crm, gate } = await start();
    await gate.down();
    const id = await requestCall(s);
    const delays = await runUntilOver(s, id);
    // The last try comes at closing time, when the office is closed.
    expect(delays).toEqual([5, 5]);
    expect(await s.relay.app.stores.jobs.get(id)).toMatchObject({ state: 'failed', outcome: 'office_closed' });
    // Even with the service back, a call held past closing time stays failed.
    await gate.up();
    clock.advance(60_000);
    expect(await s.relay.runner.runOnce()).toBe(0);
    expect(s.sim.calls).toHaveLength(0);
    await until(() => crm.events.some((e) => e.type === 'callback.failed'), 'callback.failed');
  });
});
