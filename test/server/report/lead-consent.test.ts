// The visitor's consent snapshot (trackingConsent), from the widget's request through the relay: it
// is validated, kept with the lead, and tells the owner view, the lead webhook and the report why a
// lead has no client id (the widget read no tracking cookie without analytics consent).
import { describe, expect, it } from 'vitest';
import type { TrackingConsent } from '../../../server/src/contract.ts';
import type { OwnerLead } from '../../../server/src/owner/owner-leads.ts';
import type { PeriodLead } from '../../../server/src/owner/period-leads.ts';
import type { LeadReport } from '../../../server/src/report/lead-report.ts';
import { callsSettled, delivered, heldRelayPerTest, until } from '../../support/held-calls.ts';
import { postCallback } from '../../support/post-callback.ts';
import type { System } from '../../support/system.ts';

// Wednesday 2026-11-25 12:00 in Kyiv.
const NOON = new Date('2026-11-25T10:00:00Z');
const { clock, start: startRelay, crm } = heldRelayPerTest(NOON);
const start = () => startRelay({ TIMEZONE: 'Europe/Kyiv', REDIAL_ATTEMPTS: '0' });
const getJson = async <T>(s: System, path: string) => (await (await fetch(`${s.relayUrl}${path}`)).json()) as T;

const granted: TrackingConsent = { analytics: 'granted', ads: 'denied', source: 'cookiebot', cookiesRead: true };
const declined: TrackingConsent = { analytics: 'denied', ads: 'denied', source: 'tcf', cookiesRead: false };
const waiting: TrackingConsent = { analytics: 'unknown', ads: 'unknown', source: 'none', cookiesRead: false };
const modeDenied: TrackingConsent = { analytics: 'denied', ads: 'granted', source: 'consent-mode', cookiesRead: false };

describe('the consent snapshot of a lead', () => {
  it('reaches the period leads, the waiting leads, the lead webhook and the report', async () => {
    const s = await start();
    const visit = async (phone: string, body: Record<string, unknown>) => {
      expect((await postCallback(s, { phone, ...body })).status).toBe(202);
      await callsSettled(s, phone);
    };
    await visit('+380501110001', { attribution: { utmSource: 'google', clientId: '1907690628.1747750782' }, trackingConsent: granted });
    await visit('+380501110002', { attribution: { utmSource: 'newsletter' }, trackingConsent: declined });
    await visit('+380501110003', { trackingConsent: waiting });
    // A widget from before consent handling sends none.
    await visit('+380501110004', { attribution: { utmSource: 'google', clientId: '555.666' } });
    const booked = await postCallback(s, {
      phone: '+380501110005',
      attribution: { utmSource: 'newsletter' },
      trackingConsent: modeDenied,
      scheduledFor: new Date(clock.ms + 3_600_000).toISOString(),
    });
    expect(booked.json.status).toBe('scheduled');

    // The period's leads: each one's client id, or why it has none.
    const { leads } = await getJson<{ leads: PeriodLead[] }>(s, '/owner/api/leads?from=2026-11-25&to=2026-11-25');
    const byNumber = (n: string) => leads.find((l) => l.number?.endsWith(n));
    expect(byNumber('01')).toMatchObject({ clientId: '1907690628.1747750782', consent: 'granted', consentSource: 'cookiebot' });
    expect(byNumber('02')).toMatchObject({ clientId: null, consent: 'denied', consentSource: 'tcf' });
    expect(byNumber('03')).toMatchObject({ clientId: null, consent: 'unknown', consentSource: 'none' });
    expect(byNumber('04')).toMatchObject({ clientId: '555.666', consent: '', consentSource: null });

    // The waiting booking in the owner view, and what the CRM heard of it.
    const { pending } = await getJson<{ pending: OwnerLead[] }>(s, '/owner/api/leads');
    expect(pending.find((l) => l.stage === 'scheduled')).toMatchObject({ clientId: null, consent: 'denied', consentSource: 'consent-mode' });
    expect(pending.find((l) => l.number.endsWith('01'))).toMatchObject({ clientId: '1907690628.1747750782', consent: 'granted', consentSource: 'cookiebot' });
    const events = await delivered(s, crm(), 1);
    const scheduled = events.find((e) => e.type === 'callback.scheduled')!;
    expect(scheduled.data.consent).toEqual(modeDenied);
    expect(scheduled.data.attribution).toEqual({ utmSource: 'newsletter' });

    // The report: leads asked without analytics consent, per group and in total.
    await until(async () => (await getJson<LeadReport>(s, '/owner/api/report?from=2026-11-25&to=2026-11-25')).totals.requested === 5, 'five leads');
    const report = await getJson<LeadReport>(s, '/owner/api/report?from=2026-11-25&to=2026-11-25&by=source');
    expect(report.totals.noConsent).toBe(3);
    expect(Object.fromEntries(report.groups.map((g) => [g.key, [g.requested, g.noConsent]]))).toEqual({ google: [2, 0], newsletter: [2, 2], '(none)': [1, 1] });
    expect(report.days.find((d) => d.date === '2026-11-25')!.noConsent).toBe(3);
    const csv = (await (await fetch(`${s.relayUrl}/owner/api/report.csv?from=2026-11-25&to=2026-11-25&by=source`)).text()).trimEnd().split('\r\n');
    expect(csv[0]).toBe('"source","opened","requested","placed","answered","talked","missed","failed","medianAnswerSeconds","noConsent"');
    expect(csv.at(-1)).toMatch(/^"\(total\)",0,5,4,.*,3$/);
  });

  it('is refused with 400 and the field when it is not one the widget sends', async () => {
    const s = await start();
    const refused = async (trackingConsent: unknown, field: string) => {
      const res = await postCallback(s, { phone: '+380501110009', trackingConsent });
      expect({ status: res.status, ...(res.json as { error: { code: string; field: string } }).error }).toMatchObject({ status: 400, code: 'invalid_request', field });
    };
    await refused({ ...granted, analytics: 'yes' }, 'trackingConsent.analytics');
    await refused({ ...granted, source: 'my-own-banner' }, 'trackingConsent.source');
    await refused({ ...granted, cookiesRead: 'true' }, 'trackingConsent.cookiesRead');
    await refused({ ...granted, note: 'x'.repeat(100) }, 'trackingConsent');
    await refused('granted', 'trackingConsent');
    const { analytics: _, ...partial } = granted;
    await refused(partial, 'trackingConsent.analytics');
    expect(s.sim.calls).toHaveLength(0);
  });
});
