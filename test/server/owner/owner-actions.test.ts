// The owner's actions on a lead: "call back now" on a missed or failed lead (a new job, requested as
// the owner's, placed by the runner through the number's limits and followed like any call;
// Idempotency-Key honoured) and "never call this number" (its keyed hash on the never-call list:
// later requests and held calls for it are refused).
import { describe, expect, it } from 'vitest';
import { callsSettled, callsTo, heldRelayPerTest } from '../../support/held-calls.ts';
import { postCallback } from '../../support/post-callback.ts';
import type { System } from '../../support/system.ts';

const NOON = new Date('2026-11-25T10:00:00Z');
const { clock, start: startRelay } = heldRelayPerTest(NOON);
const NO_ANSWER = '+380501234599';
const TOKEN = 'owner_0123456789abcdef0123456789abcdef';
const start = () => startRelay({ OWNER_TOKEN: TOKEN, REDIAL_ATTEMPTS: '0' });

const owner = (s: System, path: string, init: RequestInit = {}) =>
  fetch(`${s.relayUrl}${path}`, { ...init, headers: { 'x-owner-token': TOKEN, ...(init.headers as Record<string, string>) } });
const post = (s: System, path: string, headers: Record<string, string> = {}) => owner(s, path, { method: 'POST', headers });

/** A call now to `phone`, followed until the runner has read how it ended; its callback id. */
async function leadOf(s: System, phone: string): Promise<string> {
  const res = await postCallback(s, { phone, attribution: { utmSource: 'google' } });
  expect(res.status).toBe(202);
  await callsSettled(s, phone);
  clock.advance(30_000);
  await s.relay.runner.runOnce();
  return res.json.requestId!;
}

describe('call back now', () => {
  it('places a missed lead again through the number limits, once per click, as the owner', async () => {
    const s = await start();
    const missed = await leadOf(s, NO_ANSWER);
    expect(await s.relay.app.stores.jobs.get(missed)).toMatchObject({ stage: 'missed' });
    const answered = await leadOf(s, '+380501234500');

    // Not missed or failed: refused, nothing placed. Unknown: 404. Without the token: the plain 404.
    expect((await post(s, `/owner/api/leads/${answered}/call-back`)).status).toBe(409);
    expect(((await (await post(s, `/owner/api/leads/${answered}/call-back`)).json()) as { error: { code: string } }).error.code).toBe('not_callable');
    expect((await post(s, `/owner/api/leads/${crypto.randomUUID()}/call-back`)).status).toBe(404);
    expect((await fetch(`${s.relayUrl}/owner/api/leads/${missed}/call-back`, { method: 'POST' })).status).toBe(404);

    // Within the number's cooldown (120 s) of the missed call: the runner's limits refuse it.
    const early = await post(s, `/owner/api/leads/${missed}/call-back`, { 'idempotency-key': 'click-1' });
    expect(early.status).toBe(202);
    const first = (await early.json()) as { status: string; requestId: string };
    expect(first.status).toBe('scheduled');
    const again = await post(s, `/owner/api/leads/${missed}/call-back`, { 'idempotency-key': 'click-1' });
    expect(again.status).toBe(202);
    expect(await again.json()).toEqual(first);
    // Another click while the first waits: one pending call per number.
    expect((await post(s, `/owner/api/leads/${missed}/call-back`, { 'idempotency-key': 'click-2' })).status).toBe(409);
    expect(await s.relay.runner.runOnce()).toBe(1);
    expect(await s.relay.app.stores.jobs.get(first.requestId)).toMatchObject({ requestedAs: 'owner', stage: 'failed', outcome: 'number_cooldown' });
    expect(callsTo(s, NO_ANSWER)).toHaveLength(1);

    // After the cooldown: placed by the runner, followed, and counted in the report as the owner's.
    clock.advance(150_000);
    const later = (await (await post(s, `/owner/api/leads/${missed}/call-back`, { 'idempotency-key': 'click-3' })).json()) as { requestId: string };
    expect(await s.relay.runner.runOnce()).toBe(1);
    expect(callsTo(s, NO_ANSWER)).toHaveLength(2);
    await callsSettled(s, NO_ANSWER);
    clock.advance(30_000);
    await s.relay.runner.runOnce();
    expect(await s.relay.app.stores.jobs.get(later.requestId)).toMatchObject({ requestedAs: 'owner', stage: 'missed' });
    const report = (await (await owner(s, '/owner/api/report?from=2026-11-25&to=2026-11-25')).json()) as { totals: Record<string, number> };
    expect(report.totals).toMatchObject({ requested: 2, placed: 3, answered: 1, missed: 2, failed: 1 });
    const leads = (await (await owner(s, '/owner/api/leads?from=2026-11-25&to=2026-11-25')).json()) as { leads: Array<{ requestedAs: string }> };
    expect(leads.leads.filter((l) => l.requestedAs === 'owner')).toHaveLength(2);
  });
});

describe('never call this number', () => {
  it('refuses every later request for the number, and a call booked before', async () => {
    const s = await start();
    const missed = await leadOf(s, NO_ANSWER);
    const booked = await postCallback(s, { phone: '+380501234598', scheduledFor: new Date(clock.ms + 3_600_000).toISOString() });
    expect(booked.json.status).toBe('scheduled');
    const bookedJob = await s.relay.app.stores.jobs.get(booked.json.requestId!);

    const listed = await post(s, `/owner/api/leads/${missed}/never-call`);
    expect(listed.status).toBe(200);
    expect(await listed.json()).toMatchObject({ status: 'listed' });
    expect((await post(s, `/owner/api/leads/${booked.json.requestId}/never-call`)).status).toBe(200);

    clock.advance(300_000);
    const refused = await postCallback(s, { phone: '050 123 45 99' });
    expect(refused.status).toBe(400);
    expect(refused.json.error).toMatchObject({ code: 'number_not_allowed', field: 'phone' });
    expect(refused.text).not.toContain('1234599');
    expect((await post(s, `/owner/api/leads/${missed}/call-back`)).status).toBe(400);

    clock.set(bookedJob!.dueAt);
    expect(await s.relay.runner.runOnce()).toBe(1);
    expect(await s.relay.app.stores.jobs.get(bookedJob!.callbackId)).toMatchObject({ stage: 'failed', outcome: 'number_not_allowed' });
    expect(callsTo(s, '+380501234598')).toHaveLength(0);
    expect(s.rawLogs.join('\n')).not.toContain('1234599');
  });
});
