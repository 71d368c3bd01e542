// The lead report end to end: a known mix of visits (calls now answered, one nobody answered, one
// the service refused, a booking placed later), then the report's counts per group and per day,
// checked against what the simulator's call log says happened; its CSV; and its validation.
import { describe, expect, it } from 'vitest';
import { callsSettled, heldRelayPerTest, until } from '../../support/held-calls.ts';
import { postCallback } from '../../support/post-callback.ts';
import type { System } from '../../support/system.ts';
import type { LeadReport } from '../../../server/src/report/lead-report.ts';
import { outcomeOfRow } from '../../../server/src/callback/progress/call-outcome.ts';

// Wednesday 2026-11-25 12:00 in Kyiv.
const NOON = new Date('2026-11-25T10:00:00Z');
const { clock, start: startRelay } = heldRelayPerTest(NOON);
// Calls talk 0.6 s, which the call log rounds to billsec 1: each answered call is a conversation at REPORT_TALK_SECONDS=1.
const start = (env: Record<string, string> = {}) =>
  startRelay(
    { TIMEZONE: 'Europe/Kyiv', REDIAL_ATTEMPTS: '0', REPORT_TALK_SECONDS: '1', ...env },
    { simulator: { timing: { agentAnswerMs: 10, visitorRingMs: 10, talkMs: 600 }, outboundBanPrefixes: ['38050777'] } },
  );

const get = (s: System, path: string) => fetch(`${s.relayUrl}${path}`);
const report = async (s: System, query: string) => (await (await get(s, `/owner/api/report?${query}`)).json()) as LeadReport;

/** A visitor's call now, waited for until its call has ended in the simulator. */
async function visit(s: System, phone: string, attribution: Record<string, string>, page = 'https://shop.example/sofa?gclid=abc') {
  const res = await postCallback(s, { phone, attribution, pageUrl: page });
  if (res.status === 202) await callsSettled(s, phone);
  return res;
}

describe('the lead report', () => {
  it('counts a known mix of visits per source and per day, as the call log says they went', async () => {
    const s = await start();
    const spring = { utmSource: 'google', utmMedium: 'cpc', utmCampaign: 'spring' };
    expect((await visit(s, '+380501110001', spring)).status).toBe(202);
    expect((await visit(s, '+380501110002', spring)).status).toBe(202);
    expect((await visit(s, '+380501110099', { utmSource: 'facebook', utmMedium: 'social' })).status).toBe(202); // never answers
    expect((await visit(s, '+380507770001', { utmSource: 'bing' })).status).toBe(502); // the service refuses it
    const booked = await postCallback(s, { phone: '+380501110003', scheduledFor: new Date(clock.ms + 3_600_000).toISOString() });
    expect(booked.json.status).toBe('scheduled');

    // The followed calls' outcomes are read from the log; then the booking comes due and is placed.
    clock.advance(30_000);
    await s.relay.runner.runOnce();
    clock.set(NOON.getTime() + 3_600_000);
    expect(await s.relay.runner.runOnce()).toBe(1);
    await callsSettled(s, '+380501110003');
    clock.advance(30_000);
    await s.relay.runner.runOnce();
    await until(async () => (await report(s, 'from=2026-11-25&to=2026-11-25')).totals.answered === 3, 'three answered calls');

    const r = await report(s, 'from=2026-11-24&to=2026-11-26&by=source');
    expect(r).toMatchObject({ from: '2026-11-24', to: '2026-11-26', by: 'source', timeZone: 'Europe/Kyiv', talkSeconds: 1 });
    const byKey = Object.fromEntries(r.groups.map((g) => [g.key, g]));
    expect(byKey.google).toMatchObject({ requested: 2, placed: 2, answered: 2, talked: 2, missed: 0, failed: 0 });
    expect(byKey.facebook).toMatchObject({ requested: 1, placed: 1, answered: 0, talked: 0, missed: 1, failed: 0, medianAnswerSeconds: null });
    expect(byKey.bing).toMatchObject({ requested: 1, placed: 0, failed: 1 });
    expect(byKey['(none)']).toMatchObject({ requested: 1, placed: 1, answered: 1, talked: 1 });
    expect(r.days.map((d) => d.date)).toEqual(['2026-11-24', '2026-11-25', '2026-11-26']);
    expect(r.days[1]).toMatchObject({ requested: 5, placed: 4, answered: 3, talked: 3, missed: 1, failed: 1 });
    expect(r.days[0]!.requested + r.days[2]!.requested).toBe(0);

    // The simulator's call log is the truth: each count is what its rows say.
    const rows = s.sim.calls;
    const answered = rows.filter((c) => outcomeOfRow(c) === 'completed');
    expect(r.totals.placed).toBe(rows.length);
    expect(r.totals.answered).toBe(answered.length);
    expect(r.totals.talked).toBe(answered.filter((c) => c.billsec >= 1).length);
    expect(r.totals.missed).toBe(rows.filter((c) => outcomeOfRow(c) === 'missed').length);
    const requestedAt = [NOON.getTime(), NOON.getTime(), NOON.getTime() + 3_600_000];
    const answerSeconds = answered.map((c, i) => (c.calldate.getTime() + (c.duration - c.billsec) * 1000 - requestedAt[i]!) / 1000).sort((a, b) => a - b);
    expect(r.totals.medianAnswerSeconds).toBe(answerSeconds[1]);

    const byCampaign = await report(s, 'from=2026-11-25&to=2026-11-25&by=campaign');
    expect(byCampaign.groups.map((g) => [g.key, g.requested])).toEqual([
      ['(none)', 3],
      ['spring', 2],
    ]);
    const byPage = await report(s, 'from=2026-11-25&to=2026-11-25&by=page');
    // The page's path only: its query (a click id here) is never kept.
    expect(byPage.groups.map((g) => g.key).sort()).toEqual(['(none)', '/sofa']);

    // The period's leads, newest first, masked.
    const leads = (await (await get(s, '/owner/api/leads?from=2026-11-25&to=2026-11-25')).json()) as { leads: Array<Record<string, unknown>>; timeZone: string };
    expect(leads.timeZone).toBe('Europe/Kyiv');
    expect(leads.leads).toHaveLength(5);
    expect(JSON.stringify(leads)).not.toMatch(/50111000\d/);
    expect(leads.leads.find((l) => l.utmSource === 'facebook')).toMatchObject({ outcome: 'missed', canCallBack: true });
  });

  it('answers the groups as CSV, every text cell quoted, with formula cells defused', async () => {
    const s = await start();
    await visit(s, '+380501110001', { utmSource: '=hyperlink("http://evil.example")', utmCampaign: 'a,b "c"' });
    await visit(s, '+380501110002', { utmSource: '-2+3', utmCampaign: '@sum' });
    const res = await get(s, '/owner/api/report.csv?from=2026-11-25&to=2026-11-25&by=source');
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('text/csv; charset=utf-8');
    expect(res.headers.get('content-disposition')).toBe('attachment; filename="leads-source-2026-11-25-2026-11-25.csv"');
    const lines = (await res.text()).trimEnd().split('\r\n');
    expect(lines[0]).toBe('"source","opened","requested","placed","answered","talked","missed","failed","noConsent","medianAnswerSeconds"');
    expect(lines).toContain(`"'=hyperlink(""http://evil.example"")",0,1,1,0,0,0,0,0,`);
    expect(lines).toContain(`"'-2+3",0,1,1,0,0,0,0,0,`);
    expect(lines.at(-1)).toBe('"(total)",0,2,2,0,0,0,0,0,');
    const byCampaign = await (await get(s, '/owner/api/report.csv?from=2026-11-25&to=2026-11-25&by=campaign')).text();
    expect(byCampaign).toContain(`"a,b ""c""",0,1`);
    expect(byCampaign).toContain(`"'@sum",0,1`);
  });

  it('refuses a bad period or grouping with 400 and the field, and is behind the owner token', async () => {
    const token = 'owner_0123456789abcdef0123456789abcdef';
    const s = await start({ OWNER_TOKEN: token });
    expect((await get(s, '/owner/api/report?from=2026-11-25&to=2026-11-25')).status).toBe(404);
    const ask = async (query: string) => {
      const res = await fetch(`${s.relayUrl}/owner/api/report?${query}`, { headers: { 'x-owner-token': token } });
      return { status: res.status, ...((await res.json()) as { error?: { code: string; field?: string } }) };
    };
    const cases: Array<[string, string]> = [
      ['to=2026-11-25', 'from'],
      ['from=2026-11-25', 'to'],
      ['from=2026-02-30&to=2026-03-01', 'from'],
      ['from=25.11.2026&to=2026-11-25', 'from'],
      ['from=2026-11-25&to=2026-11-2x', 'to'],
      ['from=2026-11-26&to=2026-11-25', 'from'],
      ['from=2025-11-24&to=2026-11-25', 'to'],
      ['from=2026-11-25&to=2026-11-25&by=country', 'by'],
    ];
    for (const [query, field] of cases) expect(await ask(query), query).toMatchObject({ status: 400, error: { code: 'invalid_request', field } });
    expect((await ask('from=2025-11-25&to=2026-11-25')).status).toBe(200);
    const leads = await fetch(`${s.relayUrl}/owner/api/leads?from=2026-11-25`, { headers: { 'x-owner-token': token } });
    expect(leads.status).toBe(400);
    const plain = (await (await fetch(`${s.relayUrl}/owner/api/leads`, { headers: { 'x-owner-token': token } })).json()) as Record<string, unknown>;
    expect(Object.keys(plain).sort()).toEqual(['failed', 'pending']);
  });
});
