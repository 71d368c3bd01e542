// Departments through the whole relay, against the simulator: /api/status lists each one with its
// own agents and hours; a call is placed with its department's caller and caller type (as the
// service records the extended callback), booked only inside its hours and re-dialled inside them;
// an unknown department is a 400 naming the field; the lead webhook, the owner view's leads and the
// call's progress name the department.
import { describe, expect, it } from 'vitest';
import type { StatusResponse } from '../../../server/src/contract/contract.ts';
import { callbackCalls, type System } from '../../support/system.ts';
import { callsSettled, delivered, heldRelayPerTest, ORIGIN, until } from '../../support/held-calls.ts';
import { postCallback } from '../../support/post-callback.ts';
import { departmentsFile, SALES } from '../../support/departments.ts';

// Monday 2026-11-23 17:50 in Kyiv: sales (Mon-Fri 09-18) closes at 18:00, support (daily 08-22) is open.
const MONDAY_1750 = new Date('2026-11-23T15:50:00Z');
const TUESDAY_0900 = '2026-11-24T07:00:00.000Z';
const OWNER_TOKEN = 'owner_0123456789abcdef0123456789abcdef';
const { clock, start: startRelay, crm } = heldRelayPerTest(MONDAY_1750);

const file = departmentsFile({
  departments: [
    SALES,
    { id: 'support', name: { en: 'Support' }, caller: 'support-line', callerType: 'scheme', hours: 'Mon-Sun 08:00-22:00', timezone: 'Europe/Kyiv', agents: ['manager3'] },
  ],
});

const start = (env: Record<string, string> = {}) => startRelay({ DEPARTMENTS_FILE: file, OWNER_TOKEN, ...env });
const status = async (s: System) => (await (await fetch(`${s.relayUrl}/api/status`, { headers: { origin: ORIGIN } })).json()) as StatusResponse;
const progressOf = async (s: System, id: string) => (await (await fetch(`${s.relayUrl}/api/callback/${id}`, { headers: { origin: ORIGIN } })).json()) as Record<string, unknown>;
const ownerLeads = async (s: System) =>
  (await (await fetch(`${s.relayUrl}/owner/api/leads`, { headers: { 'x-owner-token': OWNER_TOKEN } })).json()) as { pending: Array<Record<string, unknown>> };
/** The params of the extended callbacks the service received, oldest first. */
const placedWith = (s: System) => callbackCalls(s).map((r) => (JSON.parse(r.body) as { params: Record<string, unknown> }).params);

describe('departments', () => {
  it('/api/status lists each department with its own agents, hours and open windows; the top level is the first one', async () => {
    const s = await start();
    const body = await status(s);
    expect(body.departments).toEqual([
      { id: 'sales', name: { en: 'Sales', uk: 'Продажі' }, available: true, openNow: true, nextOpenAt: null, windows: expect.any(Array) },
      // Its one agent (manager3) is offline in the simulator: open, but nobody can answer.
      { id: 'support', name: { en: 'Support' }, available: false, openNow: true, nextOpenAt: null, windows: expect.any(Array) },
    ]);
    const [sales, support] = body.departments!;
    expect(sales!.windows[0]).toEqual({ opensAt: '2026-11-23T15:50:00.000Z', closesAt: '2026-11-23T16:00:00.000Z' });
    expect(support!.windows[0]).toEqual({ opensAt: '2026-11-23T15:50:00.000Z', closesAt: '2026-11-23T20:00:00.000Z' });
    expect(body).toMatchObject({ available: true, openNow: true, windows: sales!.windows });

    s.sim.agents.setOnline('manager3', true);
    clock.set(new Date('2026-11-23T16:30:00Z')); // 18:30: sales closed, support open
    const later = await status(s);
    expect(later.departments!.map((d) => [d.id, d.available, d.openNow, d.nextOpenAt])).toEqual([
      ['sales', false, false, TUESDAY_0900],
      ['support', true, true, null],
    ]);
    expect(later).toMatchObject({ available: false, openNow: false, nextOpenAt: TUESDAY_0900 });
  });

  it("places each call with its department's caller and caller type; none named: the first; an unknown one is a 400 naming the field", async () => {
    const s = await start();
    expect((await postCallback(s, { phone: '+380501234501', department: 'sales' })).status).toBe(202);
    expect((await postCallback(s, { phone: '+380501234502', department: 'support' })).status).toBe(202);
    expect((await postCallback(s, { phone: '+380501234503' })).status).toBe(202);
    expect(placedWith(s).map((p) => [p.callee, p.caller, p.caller_type])).toEqual([
      ['380501234501', '380441112233', 'default'],
      ['380501234502', 'support-line', 'scheme'],
      ['380501234503', '380441112233', 'default'],
    ]);
    // The service's own record of each call: rung from the department's line.
    expect(s.sim.calls.filter((c) => c.caller.startsWith('3805012345')).map((c) => [c.caller, c.dst])).toEqual([
      ['380501234501', '380441112233'],
      ['380501234502', 'support-line'],
      ['380501234503', '380441112233'],
    ]);

    const unknown = await postCallback(s, { phone: '+380501234504', department: 'billing' });
    expect(unknown.status).toBe(400);
    expect(unknown.json.error).toMatchObject({ code: 'invalid_request', field: 'department' });
    const malformed = await postCallback(s, { phone: '+380501234504', department: 7 });
    expect(malformed.json.error).toMatchObject({ code: 'invalid_request', field: 'department' });
    expect(placedWith(s)).toHaveLength(3);
  });

  it('a call now needs its department open; a booking must fall inside ITS hours', async () => {
    const s = await start();
    clock.set(new Date('2026-11-23T16:30:00Z')); // 18:30 in Kyiv
    const closed = await postCallback(s, { phone: '+380501234511', department: 'sales' });
    expect(closed.status).toBe(409);
    expect(closed.json.error).toMatchObject({ code: 'closed', nextOpenAt: TUESDAY_0900 });
    expect((await postCallback(s, { phone: '+380501234512', department: 'support' })).status).toBe(202);

    const at1900 = '2026-11-23T19:00:00+02:00';
    const outside = await postCallback(s, { phone: '+380501234513', department: 'sales', scheduledFor: at1900 });
    expect(outside.status).toBe(400);
    expect(outside.json.error).toMatchObject({ code: 'scheduled_outside_hours', field: 'scheduledFor' });
    const inside = await postCallback(s, { phone: '+380501234513', department: 'support', scheduledFor: at1900 });
    expect(inside.status).toBe(202);
    expect(inside.json).toMatchObject({ status: 'scheduled', scheduledFor: '2026-11-23T17:00:00.000Z' });

    // Placed at its time with its department's caller.
    clock.set(new Date('2026-11-23T17:00:00Z'));
    await s.relay.runner.runOnce(); // and reads the outcome of the call placed at 18:30
    expect(placedWith(s).at(-1)).toMatchObject({ callee: '380501234513', caller: 'support-line', caller_type: 'scheme' });
  });

  it("re-dials a missed call inside its own department's hours", async () => {
    const s = await start({ REDIAL_ATTEMPTS: '1', REDIAL_DELAY_SECONDS: '900' });
    const noAnswer = '+380501234599';
    const sales = await postCallback(s, { phone: noAnswer, department: 'sales' });
    expect(sales.status).toBe(202);
    await callsSettled(s, noAnswer);
    clock.advance(20_000); // the outcome is due to be read
    expect(await s.relay.runner.runOnce()).toBe(1);
    // 17:50 + 15 min is after sales closes at 18:00: its re-dial waits for Tuesday 09:00.
    expect(await s.relay.app.stores.jobs.get(sales.json.requestId!)).toMatchObject({ stage: 'redial', dueAt: Date.parse(TUESDAY_0900), request: { department: 'sales' } });
    expect(await progressOf(s, sales.json.requestId!)).toEqual({
      requestId: sales.json.requestId,
      outcome: 'redial',
      scheduledFor: TUESDAY_0900,
      pollAfterMs: expect.any(Number),
      department: 'sales',
    });

    const other = '+380501230099';
    const support = await postCallback(s, { phone: other, department: 'support' });
    await callsSettled(s, other);
    clock.advance(20_000);
    expect(await s.relay.runner.runOnce()).toBe(1);
    // Support is open until 22:00: its re-dial comes 15 minutes later, the same evening.
    expect(await s.relay.app.stores.jobs.get(support.json.requestId!)).toMatchObject({ stage: 'redial', dueAt: clock.ms + 900_000 });
    clock.advance(900_000);
    expect(await s.relay.runner.runOnce()).toBe(1);
    expect(
      placedWith(s)
        .filter((p) => p.callee === '380501230099')
        .map((p) => p.caller),
    ).toEqual(['support-line', 'support-line']);
  });

  it('the lead webhook, the owner view and the progress of a call name its department', async () => {
    const s = await start();
    const booked = await postCallback(s, { phone: '+380501234521', department: 'support', scheduledFor: '2026-11-23T21:00:00+02:00' });
    const now = await postCallback(s, { phone: '+380501234522', department: 'sales' });
    expect([booked.status, now.status]).toEqual([202, 202]);

    const [event] = await delivered(s, crm(), 1);
    expect(event).toMatchObject({ type: 'callback.scheduled', data: { callbackId: booked.json.requestId, department: 'support' } });
    expect((await ownerLeads(s)).pending.find((l) => l.callbackId === booked.json.requestId)).toMatchObject({ department: 'support' });
    expect(await progressOf(s, booked.json.requestId!)).toMatchObject({ outcome: 'scheduled', department: 'support' });
    // A placed call, followed live by this relay, and once its job is read by another relay.
    expect(await progressOf(s, now.json.requestId!)).toMatchObject({ department: 'sales' });
    expect(await s.relay.app.stores.jobs.get(now.json.requestId!)).toMatchObject({ request: { department: 'sales' } });
    // The call ends on the simulator's real timers; the relay reads the call log again once its
    // poll period has passed on the relay's clock, which this test moves on as the widget would wait.
    await callsSettled(s, '+380501234522');
    clock.advance(60_000);
    await until(async () => (await progressOf(s, now.json.requestId!)).outcome === 'completed', 'the call to end');
    expect(await progressOf(s, now.json.requestId!)).toMatchObject({ outcome: 'completed', department: 'sales' });
  });

  it("no department's own line can be asked to call itself: each default-type caller is refused as the office's number", async () => {
    const billing = { ...SALES, id: 'billing', name: { en: 'Billing' }, caller: '380442223344' };
    const s = await startRelay({ DEPARTMENTS_FILE: departmentsFile({ departments: [SALES, billing] }), OWNER_TOKEN });
    for (const typed of ['+380 44 222 33 44', '044 222 33 44']) {
      const refused = await postCallback(s, { phone: typed, department: 'sales' });
      expect(refused.status, typed).toBe(400);
      expect(refused.json.error).toMatchObject({ code: 'office_number_not_allowed', field: 'phone' });
    }
    expect(callbackCalls(s)).toHaveLength(0);
    // A scheme id is not a number: nothing to compare (support's "support-line" above).
    expect((await postCallback(s, { phone: '+380501234540', department: 'billing' })).status).toBe(202);
  });

  it('without DEPARTMENTS_FILE nothing names a department', async () => {
    const s = await startRelay({ OWNER_TOKEN });
    expect(await status(s)).not.toHaveProperty('departments');
    const booked = await postCallback(s, { phone: '+380501234531', scheduledFor: '2026-11-23T21:00:00+02:00' });
    const [event] = await delivered(s, crm(), 1);
    expect(event!.data).not.toHaveProperty('department');
    expect((await ownerLeads(s)).pending[0]).not.toHaveProperty('department');
    expect(await progressOf(s, booked.json.requestId!)).not.toHaveProperty('department');
    // The one implicit department answers to its id; any other is unknown.
    expect((await postCallback(s, { phone: '+380501234532', department: 'default' })).status).toBe(202);
    expect((await postCallback(s, { phone: '+380501234533', department: 'sales' })).json.error).toMatchObject({ field: 'department' });
  });
});
