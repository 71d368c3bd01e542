// The runner on its own timers: a booked call is placed within 30 s of its time (the runner looks
// every 2 s); and what holds at the moment of placing — office hours and the number's and the
// site's limits — decides, not what held when the call was booked.
import { afterEach, describe, expect, it } from 'vitest';
import { callsTo, heldJobFor, heldRelayPerTest, manualTimers, until } from '../../support/held-calls.ts';
import { postCallback } from '../../support/post-callback.ts';

const MONDAY_10 = new Date('2026-11-23T08:00:00Z'); // 10:00 in Kyiv
const { clock, start: startRelay, crm } = heldRelayPerTest(MONDAY_10);
const timers = manualTimers(clock);
const PHONE = '+380505550011';
const HOURS = { WORKING_HOURS: 'Mon-Fri 09:00-18:00', TIMEZONE: 'Europe/Kyiv' };

afterEach(() => timers.pending.clear());

const start = (env: Record<string, string> = {}, leaseMs?: number) => startRelay({ ...HOURS, ...env }, { runner: { timers, ...(leaseMs && { timing: { leaseMs } }) } });

describe('the job runner', () => {
  it('places a booked call within 30 s of its time, not before', async () => {
    const s = await start();
    // Relay.start() started the runner: a pass is over once it has set its next look, 2 s on (a
    // lease renewal, set while a job is in hand, is 20 s on).
    const passOver = () => until(() => [...timers.pending.values()].some((t) => t.at === clock.ms + 2_000), 'the pass to end');
    await passOver();
    const dueAt = clock.ms + 60_000;
    await s.relay.app.stores.jobs.add(heldJobFor(PHONE, 'scheduled', dueAt), clock.ms);
    while (callsTo(s, PHONE).length === 0 && clock.ms < dueAt + 60_000) {
      clock.advance(500);
      if (timers.fire() > 0) await passOver();
    }
    expect(callsTo(s, PHONE)).toHaveLength(1);
    const placedAt = callsTo(s, PHONE)[0]!.calldate.getTime();
    expect(placedAt).toBeGreaterThanOrEqual(dueAt);
    expect(placedAt - dueAt).toBeLessThanOrEqual(5_000);
  });

  it('renews the lease while a placement outlasts it, so no other relay can take the job over', async () => {
    const s = await start({}, 3_000);
    await until(() => timers.pending.size > 0, 'the first pass');
    timers.pending.clear(); // only this test's timers from here on
    const job = heldJobFor(PHONE, 'scheduled', clock.ms);
    await s.relay.app.stores.jobs.add(job, clock.ms);
    s.sim.faults.set('callback', { kind: 'delay', ms: 300, handled: true, times: 1 });
    const pass = s.relay.runner.runOnce();
    await until(() => s.sim.requests.some((r) => r.path === '/a/v2'), 'the placement to start');
    const claimedAt = clock.ms;
    clock.advance(1_000);
    expect(timers.fire()).toBe(1);
    await until(async () => (await s.relay.app.stores.jobs.get(job.callbackId))?.leaseExpiresAt === claimedAt + 4_000, 'the renewal');
    clock.advance(2_500); // past the first lease's end
    expect(await s.relay.app.stores.jobs.claimDue('another-relay', clock.ms, 3_000, 10)).toEqual([]);
    expect(await pass).toBe(1);
    expect(callsTo(s, PHONE)).toHaveLength(1);
  });

  it("a number over its limit at the time of placing fails the call with the limit's reason, and the owner is told", async () => {
    const s = await start({ LIMIT_NUMBER_COOLDOWN_SECONDS: '0', LIMIT_NUMBER_DAILY: '1' });
    const res = await postCallback(s, { phone: PHONE, consent: true });
    expect(res.status).toBe(202);
    const job = heldJobFor(PHONE, 'scheduled', clock.ms + 600_000);
    await s.relay.app.stores.jobs.add(job, clock.ms);
    clock.advance(600_000);
    // Two jobs are due: the booked one, and the one following the call placed at once.
    expect(await s.relay.runner.runOnce()).toBe(2);
    expect(await s.relay.app.stores.jobs.get(job.callbackId)).toMatchObject({ state: 'failed', outcome: 'number_daily' });
    expect(callsTo(s, PHONE)).toHaveLength(1);
    const failed = await until(() => crm().events.find((e) => e.type === 'callback.failed'), 'callback.failed');
    expect(failed.data).toMatchObject({ callbackId: job.callbackId, reason: 'number_daily' });
  });

  it('a site cap reached at the time of placing holds the call until the cap lifts', async () => {
    const s = await start({ SITE_HOURLY_CAP: '1' });
    await s.relay.app.stores.jobs.add(heldJobFor('+380505550022', 'scheduled', clock.ms), clock.ms);
    await s.relay.app.stores.jobs.add(heldJobFor(PHONE, 'scheduled', clock.ms + 1000), clock.ms);
    clock.advance(1000);
    expect(await s.relay.runner.runOnce()).toBe(2);
    expect(s.sim.calls).toHaveLength(1);
    const held = (await s.relay.app.stores.jobs.listPending(10)).find((j) => j.request.e164 === PHONE)!;
    expect(held).toMatchObject({ state: 'pending', stage: 'scheduled' });
    expect(held.dueAt - clock.ms).toBeGreaterThan(60_000);
    expect(held.dueAt - clock.ms).toBeLessThanOrEqual(3_600_000);
    clock.set(held.dueAt);
    expect(await s.relay.runner.runOnce()).toBeGreaterThanOrEqual(1);
    expect(callsTo(s, PHONE)).toHaveLength(1);
  });

  it('a booked call whose time passed while the office closed waits for the next opening; one a weekend away fails', async () => {
    const s = await start();
    const evening = heldJobFor(PHONE, 'scheduled', Date.parse('2026-11-23T15:59:00Z')); // Monday 17:59
    const friday = heldJobFor('+380505550033', 'scheduled', Date.parse('2026-11-27T15:59:00Z')); // Friday 17:59
    await s.relay.app.stores.jobs.add(evening, clock.ms);
    await s.relay.app.stores.jobs.add(friday, clock.ms);
    // The relay was down over closing time: Monday 18:05.
    clock.set(new Date('2026-11-23T16:05:00Z'));
    expect(await s.relay.runner.runOnce()).toBe(1);
    expect(await s.relay.app.stores.jobs.get(evening.callbackId)).toMatchObject({ state: 'pending', dueAt: Date.parse('2026-11-24T07:00:00Z') });
    clock.set(new Date('2026-11-24T07:00:00Z'));
    expect(await s.relay.runner.runOnce()).toBe(1);
    expect(callsTo(s, PHONE)).toHaveLength(1);
    // Friday 18:05: the next opening is Monday, more than a day after the booked time.
    clock.set(new Date('2026-11-27T16:05:00Z'));
    expect(await s.relay.runner.runOnce()).toBeGreaterThanOrEqual(1);
    expect(await s.relay.app.stores.jobs.get(friday.callbackId)).toMatchObject({ state: 'failed', outcome: 'office_closed' });
    expect(callsTo(s, '+380505550033')).toHaveLength(0);
  });
});
