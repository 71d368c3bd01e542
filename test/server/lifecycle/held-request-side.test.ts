// The request side of held calls over real sockets: a visitor books a time ("call me later"), a
// call meets an unreachable service and is held (202 queued), and the owner is told (the signed
// lead webhook, verified with the Standard Webhooks reference package).
import { afterEach, describe, expect, it } from 'vitest';
import { SECRET, startCrm, testClock, until, type Crm } from '../../support/held-calls.ts';
import { deadUrl } from '../../support/listen.ts';
import { ORIGIN, postCallback } from '../../support/post-callback.ts';
import { callbackCalls, errorOf, QUICK_CALLS, systemPerTest } from '../../support/system.ts';

// Friday 2026-11-20 19:00 in Kyiv (17:00 UTC): the office (Mon-Fri 09-18) is closed.
const FRIDAY_EVENING = new Date('2026-11-20T17:00:00Z');
/** The relay's clock, and the one the CRM checks the webhooks' freshness against. */
const clock = testClock(FRIDAY_EVENING);
const HOURS = { WORKING_HOURS: 'Mon-Fri 09:00-18:00', TIMEZONE: 'Europe/Kyiv' };
const start = systemPerTest({ ALLOWED_ORIGINS: ORIGIN, ...HOURS }, { simulator: { timing: QUICK_CALLS }, now: clock.now });

/** The test's CRM (held-calls' startCrm), closed after it. */
let crm: Crm | undefined;
afterEach(async () => {
  await crm?.close();
  crm = undefined;
  clock.set(FRIDAY_EVENING);
});

describe('call me later', () => {
  it('books a time inside office hours while the office is closed: 202 scheduled with a cancel token, no call yet, the job kept, the owner told', async () => {
    const hook = (crm = await startCrm(clock));
    const s = await start({ LEAD_WEBHOOK_URL: hook.url, LEAD_WEBHOOK_SECRET: SECRET });
    // Without a time, the office is closed.
    expect((await errorOf(await postCallback(s, { consent: true, phone: '050 123 45 67' }))).code).toBe('closed');
    const res = await postCallback(s, {
      consent: true,
      phone: '050 123 45 67',
      scheduledFor: '2026-11-23T10:30:00+02:00',
      pageUrl: 'https://shop.example/sofa',
      attribution: { utmSource: 'google', clientId: '1907690628.1747750782' },
    });
    expect(res.status).toBe(202);
    const body = res.json as Record<string, string>;
    expect(body).toEqual({
      status: 'scheduled',
      requestId: expect.stringMatching(/^[0-9a-f-]{36}$/),
      scheduledFor: '2026-11-23T08:30:00.000Z',
      cancelToken: expect.stringMatching(/^[\w-]{20,}$/),
      phoneMasked: expect.stringContaining('*'),
    });
    expect(JSON.stringify(body)).not.toContain('501234567');
    expect(callbackCalls(s)).toHaveLength(0);
    const job = await s.relay.app.stores.jobs.get(body.requestId!);
    expect(job).toMatchObject({
      stage: 'scheduled',
      requestedAs: 'scheduled',
      cancellable: true,
      state: 'pending',
      dueAt: Date.parse('2026-11-23T08:30:00Z'),
      request: { e164: '+380501234567', origin: ORIGIN, pageUrl: 'https://shop.example/sofa', clientIp: '127.0.0.1' },
    });
    const event = await until(() => hook.events[0], 'the webhook');
    expect(event).toMatchObject({
      type: 'callback.scheduled',
      data: {
        callbackId: body.requestId,
        phone: '+380501234567',
        scheduledFor: '2026-11-23T08:30:00.000Z',
        pageUrl: 'https://shop.example/sofa',
        attribution: { utmSource: 'google', clientId: '1907690628.1747750782' },
      },
    });
  });

  it('refuses a time outside office hours, in the past or too far ahead, each with its own code; a number holds one booking', async () => {
    const s = await start();
    expect((await errorOf(await postCallback(s, { consent: true, phone: '0501234567', scheduledFor: '2026-11-21T10:00:00+02:00' }))).code).toBe('scheduled_outside_hours');
    expect((await errorOf(await postCallback(s, { consent: true, phone: '0501234567', scheduledFor: '2026-11-20T10:00:00+02:00' }))).code).toBe('scheduled_in_past');
    expect((await errorOf(await postCallback(s, { consent: true, phone: '0501234567', scheduledFor: '2026-12-01T10:00:00+02:00' }))).code).toBe('scheduled_too_far');
    expect((await errorOf(await postCallback(s, { consent: true, phone: '0501234567', scheduledFor: 'Monday morning' }))).code).toBe('invalid_request');
    expect((await postCallback(s, { consent: true, phone: '0501234567', scheduledFor: '2026-11-23T10:00:00+02:00' })).status).toBe(202);
    const again = await postCallback(s, { consent: true, phone: '+380 50 123 45 67', scheduledFor: '2026-11-24T10:00:00+02:00' });
    expect({ status: again.status, code: (await errorOf(again)).code }).toEqual({ status: 409, code: 'already_scheduled' });
  });

  it("counts the visitor's own limits when booking, and a repeat of its Idempotency-Key gets the same booking", async () => {
    const s = await start({ LIMIT_CLIENT_RATE: '2', LIMIT_CLIENT_NUMBERS_DAILY: '32' });
    const first = await postCallback(s, { consent: true, phone: '0501111111', scheduledFor: '2026-11-23T10:00:00+02:00' }, { idempotencyKey: 'booking-1' });
    const repeat = await postCallback(s, { consent: true, phone: '0501111111', scheduledFor: '2026-11-23T10:00:00+02:00' }, { idempotencyKey: 'booking-1' });
    expect(repeat.json).toEqual(first.json);
    expect(repeat.headers.get('idempotent-replayed')).toBe('true');
    expect((await postCallback(s, { consent: true, phone: '0502222222', scheduledFor: '2026-11-23T11:00:00+02:00' })).status).toBe(202);
    const third = await postCallback(s, { consent: true, phone: '0503333333', scheduledFor: '2026-11-23T12:00:00+02:00' });
    expect((await errorOf(third)).code).toBe('rate_limited');
  });
});

describe('held through an outage', () => {
  it('a call the service provably never got is held: 202 queued, the job due now, its limits kept, the owner told', async () => {
    clock.set(new Date('2026-11-23T08:00:00Z')); // Monday 10:00 in Kyiv: open
    const hook = (crm = await startCrm(clock));
    const s = await start({
      CALLTRACKING_BASE_URL: await deadUrl(),
      CALLTRACKING_AUTH_KEY: 'refused-auth-key-1234',
      CALLTRACKING_PROJECT_ID: '1',
      CALLBACK_CALLER: '380441112233',
      LEAD_WEBHOOK_URL: hook.url,
      LEAD_WEBHOOK_SECRET: SECRET,
    });
    const res = await postCallback(s, { consent: true, phone: '050 765 43 21' }, { idempotencyKey: 'outage-1' });
    expect(res.status).toBe(202);
    const body = res.json as Record<string, string>;
    expect(body).toEqual({ status: 'queued', requestId: expect.any(String), cancelToken: expect.any(String), phoneMasked: expect.stringContaining('*') });
    expect(await s.relay.app.stores.jobs.get(body.requestId!)).toMatchObject({ stage: 'queued', requestedAs: 'queued', state: 'pending', dueAt: clock.ms });
    // A repeat is the same held call, not a second one.
    const repeat = await postCallback(s, { consent: true, phone: '050 765 43 21' }, { idempotencyKey: 'outage-1' });
    expect(repeat.json).toEqual(body);
    expect((await s.relay.app.stores.jobs.listPending(10)).map((j) => j.callbackId)).toEqual([body.requestId]);
    // Its limits stay counted: the number is cooling down, as if the call had been placed.
    expect((await errorOf(await postCallback(s, { consent: true, phone: '050 765 43 21' }))).code).toBe('rate_limited');
    const event = await until(() => hook.events[0], 'the webhook');
    expect(event).toMatchObject({ type: 'callback.queued', data: { callbackId: body.requestId, phone: '+380507654321' } });
  });
});

describe('a held call, later', () => {
  it('shows its state, and is cancelled only with its token, from its own site; the owner is told', async () => {
    const hook = (crm = await startCrm(clock));
    const s = await start({ ALLOWED_ORIGINS: `${ORIGIN},https://other.example`, LEAD_WEBHOOK_URL: hook.url, LEAD_WEBHOOK_SECRET: SECRET });
    const booked = (await postCallback(s, { consent: true, phone: '050 123 45 67', scheduledFor: '2026-11-23T10:30:00+02:00' })).json as { requestId: string; cancelToken: string };
    const at = (origin: string, init: RequestInit = {}) => fetch(`${s.relayUrl}/api/callback/${booked.requestId}`, { ...init, headers: { origin, ...init.headers } });
    expect(await (await at(ORIGIN)).json()).toEqual({ requestId: booked.requestId, outcome: 'scheduled', scheduledFor: '2026-11-23T08:30:00.000Z', pollAfterMs: 15_000 });
    expect((await at('https://other.example')).status).toBe(404);

    // The browser may send the token: the preflight says so.
    const preflight = await at(ORIGIN, { method: 'OPTIONS', headers: { 'access-control-request-method': 'DELETE' } });
    expect(preflight.headers.get('access-control-allow-methods')).toContain('DELETE');
    expect(preflight.headers.get('access-control-allow-headers')).toContain('Cancel-Token');

    expect((await errorOf(await at(ORIGIN, { method: 'DELETE' }))).code).toBe('invalid_request');
    expect((await errorOf(await at(ORIGIN, { method: 'DELETE', headers: { 'cancel-token': 'not-the-token' } }))).code).toBe('cancel_not_allowed');
    expect((await at('https://other.example', { method: 'DELETE', headers: { 'cancel-token': booked.cancelToken } })).status).toBe(404);
    const cancelled = await at(ORIGIN, { method: 'DELETE', headers: { 'cancel-token': booked.cancelToken } });
    expect({ status: cancelled.status, body: await cancelled.json() }).toEqual({ status: 200, body: { requestId: booked.requestId, outcome: 'cancelled' } });
    // Twice is the same answer; the state says so; the number may be booked again.
    expect((await at(ORIGIN, { method: 'DELETE', headers: { 'cancel-token': booked.cancelToken } })).status).toBe(200);
    expect(await (await at(ORIGIN)).json()).toEqual({ requestId: booked.requestId, outcome: 'cancelled' });
    expect((await postCallback(s, { consent: true, phone: '050 123 45 67', scheduledFor: '2026-11-24T10:30:00+02:00' })).status).toBe(202);
    await until(() => (hook.events.length >= 3 ? true : undefined), 'three events');
    expect(hook.events.map((e) => e.type)).toEqual(['callback.scheduled', 'callback.cancelled', 'callback.scheduled']);
    expect(hook.events[1]!.data).toMatchObject({ callbackId: booked.requestId, phone: '+380501234567' });
    expect(callbackCalls(s)).toHaveLength(0);
  });

  it('a queued call says so until it is placed', async () => {
    clock.set(new Date('2026-11-23T08:00:00Z'));
    const s = await start({
      CALLTRACKING_BASE_URL: await deadUrl(),
      CALLTRACKING_AUTH_KEY: 'refused-auth-key-1234',
      CALLTRACKING_PROJECT_ID: '1',
      CALLBACK_CALLER: '380441112233',
    });
    const queued = (await postCallback(s, { consent: true, phone: '050 765 43 21' })).json as { requestId: string };
    const progress = await fetch(`${s.relayUrl}/api/callback/${queued.requestId}`, { headers: { origin: ORIGIN } });
    expect(await progress.json()).toEqual({ requestId: queued.requestId, outcome: 'queued', pollAfterMs: 5_000 });
  });
});
