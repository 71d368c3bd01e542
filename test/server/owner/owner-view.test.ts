// The owner view's server side: who may see it, what its JSON holds, and that neither the Auth-key
// nor a full phone number ever leaves the relay.
import { afterEach, describe, expect, it } from 'vitest';
import { postCallback } from '../../support/post-callback.ts';
import { startSystem, type System } from '../../support/system.ts';
import { createOwnerCalls, type OwnerCalls } from '../../../server/src/owner/owner-calls.ts';
import { createAcceptedCalls } from '../../../server/src/callback/progress/accepted-calls.ts';
import { createLogger } from '../../../server/src/log/index.ts';
import type { CallsListQuery } from '../../../server/src/calltracking/calls-list.ts';

const OWNER_TOKEN = 'owner_0123456789abcdef0123456789abcdef';
let system: System | null = null;
afterEach(async () => {
  await system?.close();
  system = null;
});

const timing = { agentAnswerMs: 50, visitorRingMs: 50, talkMs: 50 };

async function placeCall(sys: System, phone: string, attribution: Record<string, string>) {
  const res = await postCallback(sys, { phone, attribution }, { origin: sys.config.http.allowedOrigins[0]! });
  expect(res.status).toBe(202);
}

describe('owner view in demo mode', () => {
  it('serves the page with a strict CSP, its assets, and live agents', async () => {
    const sys = (system = await startSystem({}, { simulator: { timing } }));
    const page = await fetch(`${sys.relayUrl}/owner`);
    expect(page.status).toBe(200);
    expect(page.headers.get('content-type')).toMatch(/text\/html/);
    const csp = page.headers.get('content-security-policy') ?? '';
    expect(csp).toMatch(/script-src 'self';/);
    expect(csp).toMatch(/style-src 'self';/);
    expect(csp).not.toMatch(/unsafe-inline|nonce-|sha256-/);
    expect(page.headers.get('referrer-policy')).toBe('no-referrer');
    expect(await page.text()).toContain('/owner/owner.js');
    expect((await fetch(`${sys.relayUrl}/owner/owner.js`)).status).toBe(200);
    expect((await fetch(`${sys.relayUrl}/owner/owner.css`)).status).toBe(200);
    expect((await fetch(`${sys.relayUrl}/owner/hostile.css`)).status).toBe(404);
    // The project's zone and today, which every time and period on the page follows.
    const view = (await (await fetch(`${sys.relayUrl}/owner/api/view`)).json()) as { timeZone: string; today: string };
    expect(view.timeZone).toBe(sys.config.service.timeZone);
    expect(view.today).toMatch(/^\d{4}-\d{2}-\d{2}$/);

    const agents = (await (await fetch(`${sys.relayUrl}/owner/api/agents`)).json()) as {
      agents: Array<{ login: string; online: boolean; free: boolean }>;
      online: number;
      free: number;
    };
    expect(agents.online).toBe(2);
    expect(agents.agents.map((a) => a.login)).toEqual(['manager1', 'manager2']);
    expect(agents.agents.every((a) => a.online && a.free)).toBe(true);
    sys.sim.agents.setOnline('manager3', true);
    const again = (await (await fetch(`${sys.relayUrl}/owner/api/agents`)).json()) as { online: number };
    expect(again.online).toBe(3);
  });

  it("lists the latest calls with attribution, marks the widget's, masks numbers, counts per day by source", async () => {
    const sys = (system = await startSystem({}, { simulator: { timing } }));
    const now = Date.now();
    sys.sim.seedCalls(30, { from: new Date(now - 3 * 86400_000), to: new Date(now - 3600_000) });
    await placeCall(sys, '050 123 45 67', { utmSource: 'newsletter', utmMedium: 'email', clientId: '1907690628.1747750782' });
    await expect.poll(() => sys.sim.calls.at(-1)?.state, { timeout: 5000 }).toBe('ended');

    const res = await fetch(`${sys.relayUrl}/owner/api/calls`);
    expect(res.headers.get('cache-control')).toBe('no-store');
    const text = await res.text();
    expect(text).not.toContain(sys.sim.authKey);
    expect(text).not.toContain('501234567');
    const data = JSON.parse(text) as OwnerCalls;
    expect(data.live).toBe(true);
    expect(data.days).toHaveLength(7);
    expect(data.days.reduce((n, d) => n + d.total, 0)).toBe(31);
    expect(data.sources).toContain('newsletter');
    expect(data.days.at(-1)!.bySource.newsletter).toBe(1);
    const ours = data.latest[0]!;
    expect(ours).toMatchObject({ utmSource: 'newsletter', utmMedium: 'email', clientId: '1907690628.1747750782', widget: true, placedHere: true, disposition: 'ANSWERED' });
    // One masking style on the owner view: the call log's numbers are masked like held calls'.
    expect(ours.number).toBe('+380 50 *** **67');
    expect(data.latest.filter((c) => c.widget).length).toBeGreaterThanOrEqual(1);
    for (const c of data.latest) expect(c.number).toMatch(/\*/);
  });

  it('asks the service once per day shown, then only today again; many tabs share it', async () => {
    const sys = (system = await startSystem({}, { simulator: { timing } }));
    const listRequests = () => sys.sim.requests.filter((r) => r.path.startsWith('/calls/list')).length;
    await Promise.all(Array.from({ length: 10 }, () => fetch(`${sys.relayUrl}/owner/api/calls`)));
    expect(listRequests()).toBe(7);
    await Promise.all(Array.from({ length: 10 }, () => fetch(`${sys.relayUrl}/owner/api/calls`)));
    expect(listRequests()).toBe(7);
  });

  it('a failing call log answers the last data marked not live, never a server error', async () => {
    const sys = (system = await startSystem({}, { simulator: { timing } }));
    sys.sim.faults.set('calls', { kind: 'html' });
    const res = await fetch(`${sys.relayUrl}/owner/api/calls`);
    expect(res.status).toBe(200);
    expect(((await res.json()) as OwnerCalls).live).toBe(false);
  });
});

describe('owner view access', () => {
  it('with OWNER_TOKEN: the token is required, by query, header or bearer; otherwise the plain 404', async () => {
    const sys = (system = await startSystem({ OWNER_TOKEN }, { simulator: { timing } }));
    const unknown = (await (await fetch(`${sys.relayUrl}/ownerx`)).json()) as { error: { code: string } };
    for (const path of ['/owner', '/owner?token=wrong-token-0123456789', '/owner/api/agents', '/owner/api/calls']) {
      const res = await fetch(sys.relayUrl + path);
      expect(res.status, path).toBe(404);
      expect(((await res.json()) as { error: { code: string } }).error.code).toBe(unknown.error.code);
    }
    expect((await fetch(`${sys.relayUrl}/owner?token=${OWNER_TOKEN}`)).status).toBe(200);
    expect((await fetch(`${sys.relayUrl}/owner/api/agents`, { headers: { 'x-owner-token': OWNER_TOKEN } })).status).toBe(200);
    expect((await fetch(`${sys.relayUrl}/owner/api/calls`, { headers: { authorization: `Bearer ${OWNER_TOKEN}` } })).status).toBe(200);
    expect((await fetch(`${sys.relayUrl}/owner/api/calls`, { headers: { 'x-owner-token': `${OWNER_TOKEN}x` } })).status).toBe(404);
    expect(sys.rawLogs.join('\n')).not.toContain(OWNER_TOKEN);
  });

  it('outside demo mode without OWNER_TOKEN there is no owner view', async () => {
    const sys = (system = await startSystem({ DEMO: 'false', ALLOWED_ORIGINS: 'https://shop.example' }, { simulator: { timing } }));
    for (const path of ['/owner', '/owner/owner.js', '/owner/api/agents']) expect((await fetch(sys.relayUrl + path)).status, path).toBe(404);
  });
});

describe('owner call log cache', () => {
  const tz = 'Europe/Kyiv';
  let now = new Date('2026-03-10T12:00:00Z');
  /** A call log with one call per day asked for, its utm source the day it was asked for. */
  function fakeService() {
    const asked: Array<{ from: Date; to: Date }> = [];
    let failing = false;
    return {
      asked,
      fail: (on: boolean) => void (failing = on),
      client: {
        async callsList(query: CallsListQuery<never>) {
          if (failing) throw new Error('service down');
          asked.push({ from: query.from, to: query.to });
          const calldate = new Date(query.from.getTime() + 3600_000);
          const row = {
            calldate,
            caller: '380441112233',
            dst: '380501234567',
            disposition: 'ANSWERED',
            billsec: 10,
            duration: 20,
            call_type: 'in',
            utm_source: `src-${asked.length}`,
            utm_medium: '',
            client_id: '',
            uniqueid: String(asked.length),
          };
          return [row] as never[];
        },
      },
    };
  }
  const make = (service: ReturnType<typeof fakeService>, refreshMs = 0) =>
    createOwnerCalls({ client: service.client, accepted: createAcceptedCalls(), timeZone: tz, log: createLogger({ level: 'silent' }), now: () => now, refreshMs });
  const later = (ms: number) => (now = new Date(now.getTime() + ms));

  it('after the first answer only today is asked again: days that are over are kept', async () => {
    const service = fakeService();
    const calls = make(service);
    const first = await calls.get();
    expect(service.asked).toHaveLength(7);
    expect(first.days.map((d) => d.total)).toEqual([1, 1, 1, 1, 1, 1, 1]);
    const today = service.asked.at(-1)!;
    const second = await calls.get();
    expect(service.asked).toHaveLength(8);
    expect(service.asked[7]).toEqual(today);
    // The closed days are the very rows of the first answer; today is the new one.
    expect(second.days.slice(0, 6)).toEqual(first.days.slice(0, 6));
    expect(second.days.at(-1)!.bySource).toEqual({ 'src-8': 1 });
    expect(second.live).toBe(true);
  });

  it('asks the service at most once per refresh period, and waits a period after a failure', async () => {
    const service = fakeService();
    const calls = make(service, 60_000);
    await calls.get();
    expect(service.asked).toHaveLength(7);
    later(30_000);
    await calls.get();
    expect(service.asked).toHaveLength(7);
    later(31_000);
    await calls.get();
    expect(service.asked).toHaveLength(8);
    service.fail(true);
    later(61_000);
    expect((await calls.get()).live).toBe(false); // asked, failed
    service.fail(false);
    later(30_000);
    expect((await calls.get()).live).toBe(false); // still waiting after the failure: not asked
    expect(service.asked).toHaveLength(8);
    later(31_000);
    expect((await calls.get()).live).toBe(true);
    expect(service.asked).toHaveLength(9);
    now = new Date('2026-03-10T12:00:00Z');
  });

  it('a failure after a good answer keeps that answer, marked not live', async () => {
    const service = fakeService();
    const calls = make(service);
    const good = await calls.get();
    service.fail(true);
    const stale = await calls.get();
    expect(stale.live).toBe(false);
    expect(stale.latest).toEqual(good.latest);
    expect(stale.days).toEqual(good.days);
  });
});

describe('owner view: pending leads', () => {
  it("lists held calls and recent failures with masked numbers, and cancels one only with the owner's access", async () => {
    const sys = (system = await startSystem({ OWNER_TOKEN }, { simulator: { timing } }));
    const origin = sys.config.http.allowedOrigins[0]!;
    const inAnHour = new Date(Date.now() + 3_600_000).toISOString();
    const booked = await postCallback(sys, { phone: '050 222 33 44', scheduledFor: inAnHour, attribution: { utmSource: 'google' } }, { origin });
    const { requestId } = booked.json as { requestId: string };
    const auth = { 'x-owner-token': OWNER_TOKEN };
    const leads = (await (await fetch(`${sys.relayUrl}/owner/api/leads`, { headers: auth })).json()) as { pending: Array<Record<string, unknown>>; failed: unknown[] };
    expect(leads.pending).toEqual([
      expect.objectContaining({
        callbackId: requestId,
        stage: 'scheduled',
        requestedAs: 'scheduled',
        cancellable: true,
        state: 'pending',
        utmSource: 'google',
        number: expect.stringContaining('*'),
      }),
    ]);
    expect(leads.failed).toEqual([]);
    expect(JSON.stringify(leads)).not.toContain('502223344');

    const cancel = (headers: Record<string, string>) => fetch(`${sys.relayUrl}/owner/api/leads/${requestId}/cancel`, { method: 'POST', headers });
    expect((await cancel({})).status).toBe(404);
    expect((await cancel({ 'x-owner-token': 'wrong_0123456789abcdef' })).status).toBe(404);
    const done = await cancel(auth);
    expect({ status: done.status, body: await done.json() }).toEqual({ status: 200, body: { requestId, outcome: 'cancelled' } });
    expect(((await (await fetch(`${sys.relayUrl}/owner/api/leads`, { headers: auth })).json()) as { pending: unknown[] }).pending).toEqual([]);
  });

  it('shows a call placed now, while it goes on, as in progress: not as a re-dial, and with nothing to cancel', async () => {
    // Long enough that the call is still going on when the owner looks.
    const sys = (system = await startSystem({ OWNER_TOKEN }, { simulator: { timing: { agentAnswerMs: 5_000, visitorRingMs: 5_000, talkMs: 5_000 } } }));
    const origin = sys.config.http.allowedOrigins[0]!;
    const placed = await fetch(`${sys.relayUrl}/api/callback`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', origin },
      body: JSON.stringify({ phone: '050 222 33 55', consent: true, attribution: { utmSource: 'google' } }),
    });
    const { requestId, status } = (await placed.json()) as { requestId: string; status: string };
    expect(status).toBe('accepted');
    const auth = { 'x-owner-token': OWNER_TOKEN };
    const leads = (await (await fetch(`${sys.relayUrl}/owner/api/leads`, { headers: auth })).json()) as { pending: Array<Record<string, unknown>> };
    expect(leads.pending).toEqual([
      expect.objectContaining({ callbackId: requestId, stage: 'following', requestedAs: 'now', cancellable: false, state: 'pending', utmSource: 'google' }),
    ]);
    // The owner cannot cancel a call that has been placed.
    const cancel = await fetch(`${sys.relayUrl}/owner/api/leads/${requestId}/cancel`, { method: 'POST', headers: auth });
    expect(cancel.status).toBe(409);
    // The owner view's script names the stage for a person: a call in progress, not "Nobody answered".
    const script = await (await fetch(`${sys.relayUrl}/owner/owner.js`, { headers: auth })).text();
    expect(script).toMatch(/following:.Call in progress./);
  });
});
