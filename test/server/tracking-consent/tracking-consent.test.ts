// The visitor's tracking consent (trackingConsent) as the widget sends it with a callback request:
// checked by the schema, kept with the job (jobs' request is one JSON value in every store: the
// store contract tests carry a snapshot), and told to the owner view's leads and the lead webhook,
// and counted in the lead report (noConsent), so a marketer sees why a lead has no client id.
import { describe, expect, it } from 'vitest';
import { delivered, heldRelayPerTest } from '../../support/held-calls.ts';
import { postCallback } from '../../support/post-callback.ts';
import type { System } from '../../support/system.ts';
import { consentMark } from '../../../server/src/tracking-consent/snapshot.ts';

const NOON = new Date('2026-11-25T10:00:00Z');
const { clock, start: startRelay, crm } = heldRelayPerTest(NOON);
const TOKEN = 'owner_0123456789abcdef0123456789abcdef';
const start = () => startRelay({ OWNER_TOKEN: TOKEN, REDIAL_ATTEMPTS: '0' });
const owner = (s: System, path: string) => fetch(`${s.relayUrl}${path}`, { headers: { 'x-owner-token': TOKEN } });

const declined = { analytics: 'denied', ads: 'unknown', source: 'cookiebot', cookiesRead: false } as const;

describe('trackingConsent in the request', () => {
  it('is refused, naming the field, when it is not the snapshot the widget sends', async () => {
    const s = await start();
    for (const bad of [{ ...declined, analytics: 'yes' }, { ...declined, source: '<script>' }, { ...declined, cookiesRead: 'false' }, { ...declined, extra: 1 }, 'granted']) {
      const res = await postCallback(s, { phone: '+380501234567', trackingConsent: bad });
      expect(res.status, JSON.stringify(bad)).toBe(400);
      expect(res.json.error).toMatchObject({ code: 'invalid_request', field: expect.stringMatching(/^trackingConsent/) });
    }
  });

  it('is kept with the job and told to the owner view and the lead webhook; a request without one still counts', async () => {
    const s = await start();
    // Booked for later: the CRM hears of each at once (callback.scheduled).
    const scheduledFor = new Date(clock.ms + 3_600_000).toISOString();
    const withConsent = await postCallback(s, { phone: '+380501234567', scheduledFor, attribution: { utmSource: 'newsletter' }, trackingConsent: declined });
    expect(withConsent.status).toBe(202);
    const without = await postCallback(s, { phone: '+380501234568', scheduledFor, attribution: { utmSource: 'google', clientId: '1907690628.1747750782' } });
    expect(without.status).toBe(202);

    expect((await s.relay.app.stores.jobs.get(withConsent.json.requestId!))?.request.trackingConsent).toEqual(declined);
    const view = (await (await owner(s, '/owner/api/leads?from=2026-11-25&to=2026-11-25')).json()) as {
      leads: Array<{ callbackId: string; clientId: string | null; consent: string; consentSource: string | null }>;
    };
    expect(view.leads.find((l) => l.callbackId === withConsent.json.requestId)).toMatchObject({ clientId: null, consent: 'denied', consentSource: 'cookiebot' });
    expect(view.leads.find((l) => l.callbackId === without.json.requestId)).toMatchObject({ clientId: '1907690628.1747750782', consent: '', consentSource: null });

    // The report counts the lead asked without analytics consent; the one from a widget before it, not.
    const report = (await (await owner(s, '/owner/api/report?from=2026-11-25&to=2026-11-25')).json()) as { totals: Record<string, number> };
    expect(report.totals).toMatchObject({ requested: 2, noConsent: 1 });
    const events = await delivered(s, crm(), 2);
    const booked = events.find((e) => e.data.callbackId === withConsent.json.requestId);
    expect(booked?.data.consent).toEqual(declined);
    expect(events.find((e) => e.data.callbackId === without.json.requestId)?.data.consent).toBeNull();
  });
});

it('the mark: whether the widget read the tracking cookies, and if not why', () => {
  expect(consentMark(null)).toBe('');
  expect(consentMark({ analytics: 'granted', ads: 'denied', source: 'tcf', cookiesRead: true })).toBe('granted');
  expect(consentMark({ analytics: 'unknown', ads: 'unknown', source: 'none', cookiesRead: true })).toBe('none');
  expect(consentMark({ analytics: 'denied', ads: 'granted', source: 'consent-mode', cookiesRead: false })).toBe('denied');
  expect(consentMark({ analytics: 'unknown', ads: 'unknown', source: 'none', cookiesRead: false })).toBe('unknown');
});
