// Re-dial when nobody answered: a placed call is followed in the call log; when it was missed (the
// simulator's numbers ending in 99 never answer) the relay places it again after
// REDIAL_DELAY_SECONDS, at most REDIAL_ATTEMPTS times, never outside office hours; the owner hears
// of every placement and every miss, each with its own stable occurrence.
import { describe, expect, it } from 'vitest';
import type { System } from '../../support/system.ts';
import { callsSettled, callsTo, heldJobFor, heldRelayPerTest, ORIGIN, until } from '../../support/held-calls.ts';
import { postCallback } from '../../support/post-callback.ts';

// Monday 2026-11-23 17:50 in Kyiv; the office (Mon-Fri 09-18) closes at 18:00.
const MONDAY_1750 = new Date('2026-11-23T15:50:00Z');
const TUESDAY_0900 = Date.parse('2026-11-24T07:00:00Z');
const { clock, start: startRelay, crm } = heldRelayPerTest(MONDAY_1750);
const NO_ANSWER = '+380501234599';
const CHECK_MS = 20_000;

const start = (env: Record<string, string> = {}, webhook = true) => startRelay({ WORKING_HOURS: 'Mon-Fri 09:00-18:00', TIMEZONE: 'Europe/Kyiv', ...env }, { webhook });

const progressOf = async (sys: System, id: string) =>
  (await (await fetch(`${sys.relayUrl}/api/callback/${id}`, { headers: { origin: ORIGIN } })).json()) as Record<string, unknown>;

/** The lead events of the test's main call (`mainId`), once there are `n`. */
let mainId = '';
const mine = () => crm().events.filter((e) => e.data.callbackId === mainId);
const events = (n: number) => until(() => mine().length >= n && mine(), `${n} lead events`);

/** The call ends, its outcome is due to be read, and the runner reads it. */
async function followToEnd(sys: System) {
  await callsSettled(sys, NO_ANSWER);
  clock.advance(CHECK_MS);
  expect(await sys.relay.runner.runOnce()).toBe(1);
}

describe('re-dial when nobody answered', () => {
  it('places a missed call again REDIAL_ATTEMPTS times, each after REDIAL_DELAY_SECONDS and inside office hours', async () => {
    const s = await start({ REDIAL_ATTEMPTS: '2', REDIAL_DELAY_SECONDS: '300' });
    const job = heldJobFor(NO_ANSWER, 'scheduled', clock.ms);
    mainId = job.callbackId;
    await s.relay.app.stores.jobs.add(job, clock.ms - 3_600_000);
    const get = () => s.relay.app.stores.jobs.get(job.callbackId);

    expect(await s.relay.runner.runOnce()).toBe(1); // 17:50:00, call 1
    expect(callsTo(s, NO_ANSWER)).toHaveLength(1);
    await followToEnd(s); // 17:50:20: missed
    const first = await get();
    expect(first).toMatchObject({ state: 'pending', stage: 'redial', dueAt: clock.ms + 300_000 });
    // The visitor's widget shows the re-dial and its time, not a final "missed".
    expect(await progressOf(s, job.callbackId)).toMatchObject({ outcome: 'redial', scheduledFor: new Date(first!.dueAt).toISOString() });
    // A waiting re-dial can be cancelled; a call being followed cannot (it was placed). Checked on a
    // second job in each state, so this one goes on.
    // Due long after this test ends: a followed call cannot be cancelled, even by the owner.
    const followed = heldJobFor('+380501230099', 'following', clock.ms + 30 * 86_400_000, undefined, { lastAttemptAt: 0 });
    await s.relay.app.stores.jobs.add(followed, clock.ms);
    const cancel = (id: string) => fetch(`${s.relayUrl}/api/callback/${id}`, { method: 'DELETE', headers: { origin: ORIGIN, 'cancel-token': `cancel-${id}` } });
    expect((await cancel(followed.callbackId)).status).toBe(409);
    const waiting = heldJobFor('+380501230199', 'redial', clock.ms + 60_000, undefined, { redials: 1 });
    await s.relay.app.stores.jobs.add(waiting, clock.ms);
    expect((await cancel(waiting.callbackId)).status).toBe(200);
    expect(await s.relay.app.stores.jobs.get(followed.callbackId)).toMatchObject({ state: 'pending' });
    expect(await s.relay.app.stores.jobs.get(waiting.callbackId)).toMatchObject({ state: 'cancelled' });
    await until(() => crm().events.some((e) => e.type === 'callback.cancelled' && e.data.callbackId === waiting.callbackId), 'callback.cancelled');
    expect(await s.relay.app.stores.jobs.cancel(followed.callbackId, null, clock.ms)).toBe('placed');
    await events(2);

    clock.set(first!.dueAt - 1);
    expect(await s.relay.runner.runOnce()).toBe(0);
    expect(callsTo(s, NO_ANSWER)).toHaveLength(1);
    clock.set(first!.dueAt);
    expect(await s.relay.runner.runOnce()).toBe(1); // 17:55:20, call 2
    expect(callsTo(s, NO_ANSWER)).toHaveLength(2);
    await followToEnd(s); // 17:55:40: missed; 18:00:40 is after closing, so Tuesday 09:00
    expect(await get()).toMatchObject({ state: 'pending', stage: 'redial', dueAt: TUESDAY_0900 });
    expect(await progressOf(s, job.callbackId)).toMatchObject({ outcome: 'redial', scheduledFor: new Date(TUESDAY_0900).toISOString() });
    await events(4);

    for (const at of ['2026-11-23T16:00:40Z', '2026-11-23T21:00:00Z', '2026-11-24T06:59:59Z']) {
      clock.set(new Date(at));
      expect(await s.relay.runner.runOnce()).toBe(0);
    }
    expect(callsTo(s, NO_ANSWER)).toHaveLength(2);
    clock.set(TUESDAY_0900);
    expect(await s.relay.runner.runOnce()).toBe(1); // call 3, the last re-dial
    await followToEnd(s);
    expect(await get()).toMatchObject({ state: 'completed', outcome: 'missed' });
    expect(await progressOf(s, job.callbackId)).toMatchObject({ outcome: 'missed' });
    await events(6);
    clock.advance(3_600_000);
    expect(await s.relay.runner.runOnce()).toBe(0);

    // Exactly 1 + REDIAL_ATTEMPTS calls, none outside office hours.
    const calls = callsTo(s, NO_ANSWER);
    expect(calls.map((c) => c.calldate.toISOString())).toEqual(['2026-11-23T15:50:00.000Z', '2026-11-23T15:55:20.000Z', '2026-11-24T07:00:00.000Z']);
    expect(calls.every((c) => c.disposition === 'CLIENT NO ANSWER')).toBe(true);
    expect(mine().map((e) => e.type)).toEqual(['callback.placed', 'callback.missed', 'callback.placed', 'callback.missed', 'callback.placed', 'callback.missed']);
    const missed = mine().filter((e) => e.type === 'callback.missed');
    expect(missed.map((e) => e.data.reason)).toEqual(['no_answer', 'no_answer', 'no_answer']);
    // The booked time stays the visitor's, whatever the re-dials' times.
    expect(mine().every((e) => e.data.scheduledFor === MONDAY_1750.toISOString())).toBe(true);
    // One stable id per occurrence: six events, six ids (and the cancelled call's one).
    expect(crm().ids).toHaveLength(7);
    expect(new Set(crm().ids).size).toBe(7);
    // The runner logged every step, never the full number.
    expect(s.logs.some((l) => l.msg === 'missed call: re-dial due')).toBe(true);
    expect(s.rawLogs.join('\n')).not.toContain('501234599');
  });

  it('an answered call is not re-dialled', async () => {
    const s = await start({ REDIAL_ATTEMPTS: '3', REDIAL_DELAY_SECONDS: '60' });
    const job = heldJobFor('+380501234500', 'scheduled', clock.ms);
    await s.relay.app.stores.jobs.add(job, clock.ms - 3_600_000);
    expect(await s.relay.runner.runOnce()).toBe(1);
    await callsSettled(s, '+380501234500');
    clock.advance(CHECK_MS);
    expect(await s.relay.runner.runOnce()).toBe(1);
    expect(await s.relay.app.stores.jobs.get(job.callbackId)).toMatchObject({ state: 'completed', outcome: 'answered' });
    clock.advance(3_600_000);
    expect(await s.relay.runner.runOnce()).toBe(0);
    expect(callsTo(s, '+380501234500')).toHaveLength(1);
  });

  it('follows a call the request path placed at once: missed → exactly one re-dial (REDIAL_ATTEMPTS default 1)', async () => {
    const s = await start({ REDIAL_DELAY_SECONDS: '120' }, false);
    const res = await postCallback(s, { phone: NO_ANSWER, consent: true });
    const { requestId, status } = res.json as { requestId: string; status: string };
    expect(status).toBe('accepted');
    // POST /api/callback itself left the job that follows the call (place-now.ts → placedNowJob).
    const placedAt = clock.ms;
    // Following the call is not a re-dial, and a call placed at once has no cancel token.
    expect(await s.relay.app.stores.jobs.get(requestId)).toMatchObject({
      state: 'pending',
      stage: 'following',
      requestedAs: 'now',
      cancellable: false,
      dueAt: placedAt + CHECK_MS,
    });
    // The call is over and the widget's progress knows it was missed, but the job runner has not
    // read the call log yet: the widget is told of the re-dial to come, never a final "missed"
    // (it would stop asking and offer "Try again" moments before the re-dial is booked).
    await callsSettled(s, NO_ANSWER);
    const told = await until(async () => {
      const progress = await progressOf(s, requestId);
      expect(progress.outcome).not.toBe('missed');
      return progress.outcome === 'redial' && progress;
    }, 'the re-dial to come');
    expect(await s.relay.app.stores.jobs.get(requestId)).toMatchObject({ stage: 'following', progress: { lastAttemptAt: placedAt } });
    expect(told.pollAfterMs).toBeGreaterThan(0);
    clock.advance(CHECK_MS);
    expect(await s.relay.runner.runOnce()).toBe(1);
    const redial = await s.relay.app.stores.jobs.get(requestId);
    expect(redial).toMatchObject({ state: 'pending', stage: 'redial', dueAt: clock.ms + 120_000, progress: { redials: 1 } });
    // The time told was the one the runner then booked.
    expect(told.scheduledFor).toBe(new Date(redial!.dueAt).toISOString());
    clock.set(redial!.dueAt);
    expect(await s.relay.runner.runOnce()).toBe(1);
    expect(callsTo(s, NO_ANSWER)).toHaveLength(2);
    // No attempts left and no lead webhook to tell: nothing comes of following it, so it is not followed.
    expect(await s.relay.app.stores.jobs.get(requestId)).toMatchObject({ state: 'completed', outcome: 'placed' });
    clock.advance(3_600_000);
    expect(await s.relay.runner.runOnce()).toBe(0);
    expect(callsTo(s, NO_ANSWER)).toHaveLength(2);
  });

  it('keeps no number to follow a call when nothing would come of it (no lead webhook, REDIAL_ATTEMPTS=0): its job ends at once', async () => {
    const s = await start({ REDIAL_ATTEMPTS: '0' }, false);
    const { requestId } = (await postCallback(s, { phone: NO_ANSWER, consent: true })).json as { requestId: string };
    expect(await s.relay.app.stores.jobs.get(requestId)).toMatchObject({ stage: 'ended', state: 'completed', outcome: 'placed', request: { e164: null, clientIp: null } });
    // Never placed again: the service took it already.
    clock.advance(3_600_000);
    expect(await s.relay.runner.runOnce()).toBe(0);
    expect(callsTo(s, NO_ANSWER)).toHaveLength(1);
  });
});
