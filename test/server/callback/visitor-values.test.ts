// What a visitor's browser sends is cleaned before anything is stored: every text value (utm
// values, client id, locale, user agent, the beacon's page and department) loses its control
// characters, line and paragraph separators and bidi controls; the page URL is kept only as an
// http(s) page of the request's own allowed Origin, and dropped otherwise (logged), never costing
// the visitor the call. Over real sockets, on the embedded store, with the shared hostile set.
import { afterEach, describe, expect, it } from 'vitest';
import { testClock } from '../../support/held-calls.ts';
import { expectCleanStrings, FORBIDDEN, HOSTILE_PAGE_URLS, hostileWithin } from '../../support/hostile-values.ts';
import { ORIGIN, postCallback } from '../../support/post-callback.ts';
import { QUICK_CALLS, systemPerTest, type System } from '../../support/system.ts';

// Friday 2026-11-20 19:00 in Kyiv: the office is closed, so each request is a booking the job store keeps.
const FRIDAY_EVENING = new Date('2026-11-20T17:00:00Z');
const MONDAY_1030 = '2026-11-23T10:30:00+02:00';
const clock = testClock(FRIDAY_EVENING);
afterEach(() => clock.set(FRIDAY_EVENING));
const start = systemPerTest(
  { ALLOWED_ORIGINS: ORIGIN, TRUSTED_PROXIES: '127.0.0.1', WORKING_HOURS: 'Mon-Fri 09:00-18:00', TIMEZONE: 'Europe/Kyiv' },
  { simulator: { timing: QUICK_CALLS }, now: clock.now },
);

let phones = 0;
/** A new valid number for each booking (a number holds one booking), and a new network for each request. */
const nextPhone = () => `+38050123${String(10_000 + phones++).slice(1)}`;

async function book(s: System, body: Record<string, unknown>, headers: Record<string, string> = {}) {
  // Each from its own network: the test is about values, not about the limits of one client.
  const res = await postCallback(s, { phone: nextPhone(), consent: true, scheduledFor: MONDAY_1030, ...body }, { headers, forwardedFor: `198.18.${phones}.1` });
  expect(res.status, res.text).toBe(202);
  return (await s.relay.app.stores.jobs.get(res.json.requestId!))!;
}

describe('visitor values before they are stored', () => {
  it('keeps every text value of a callback as one clean line, and the call goes on', async () => {
    const s = await start();
    for (const [name, value] of Object.entries(hostileWithin(200))) {
      const attribution = { utmSource: value, utmMedium: value, utmCampaign: value, utmTerm: value, utmContent: value, clientId: value };
      const job = await book(s, { attribution, locale: value.slice(0, 35), pageUrl: `${ORIGIN}/sofa` }, { 'user-agent': 'Mozilla/5.0 (X11)\x9b[31m\tred' });
      expectCleanStrings(job.request, name);
      expect(job.request.userAgent).toBe('Mozilla/5.0 (X11)[31m red');
    }
    const facts = await s.relay.app.stores.report.leads(0, Number.MAX_SAFE_INTEGER);
    expect(facts.length).toBe(Object.keys(hostileWithin(200)).length);
    expectCleanStrings(facts, 'report facts');
    // The probe of issue 30: its lines are one line now (and, as the report groups it, lower case and at most 100 characters).
    const probe = facts.find((f) => f.source.startsWith('google number'))!;
    expect(probe.source).toBe('google number: +44 909 879 0000 (the visitor asked to be called on this one) state: answered'.slice(0, 100));
  });

  it('drops a value that is nothing but invisible characters or blanks instead of refusing the call', async () => {
    const s = await start();
    const job = await book(s, { attribution: { utmSource: '\u202E\u200F', utmMedium: ' \n\t ', utmCampaign: 'spring' }, locale: '\u0000' });
    expect(job.request.attribution).toEqual({ utmCampaign: 'spring' });
    expect(job.request.locale).toBeNull();
  });

  it('keeps a page URL only as an http(s) page of the request origin, drops any other and says so in the log', async () => {
    const s = await start();
    for (const pageUrl of HOSTILE_PAGE_URLS) {
      const job = await book(s, { pageUrl });
      expect(job.request.pageUrl, pageUrl).toBeNull();
    }
    const dropped = s.logs.filter((l) => l.msg === 'request' && l.path === '/api/callback' && l.pageUrlDropped !== undefined);
    expect(dropped).toHaveLength(HOSTILE_PAGE_URLS.length);
    expect(new Set(dropped.map((l) => l.pageUrlDropped))).toEqual(new Set(['not_http', 'other_origin']));
    // The same site, written another way, is the same page: kept as the URL parser writes it (what
    // a browser's location.href says), its odd characters percent-encoded.
    const kept = await book(s, { pageUrl: 'HTTPS://SHOP.EXAMPLE:443/sofa?size=<xl>#\u202Etop' });
    expect(kept.request.pageUrl).toBe('https://shop.example/sofa?size=%3Cxl%3E#%E2%80%AEtop');
    // http on an https site is another origin.
    expect((await book(s, { pageUrl: 'http://shop.example/sofa' })).request.pageUrl).toBeNull();
  });

  it('keeps the consent record privacy URL as the URL parser writes it', async () => {
    const s = await start();
    await book(s, { consentText: 'Call me back.', privacyUrl: 'https://shop.example/privacy\u202E\u0000' });
    const [record] = s.relay.app.consent.recent();
    expect(record!.privacyUrl).toBe('https://shop.example/privacy%E2%80%AE');
    // Anything but an absolute http(s) URL is still refused, as before.
    const res = await postCallback(s, { phone: nextPhone(), consent: true, scheduledFor: MONDAY_1030, privacyUrl: 'javascript:alert(1)' });
    expect({ status: res.status, field: res.json.error?.field }).toEqual({ status: 400, field: 'privacyUrl' });
  });

  it('cleans the open beacon values before they are counted', async () => {
    const s = await start();
    const day = '2026-11-20';
    for (const [name, value] of Object.entries(hostileWithin(150))) {
      // No department: one the relay does not offer is not counted at all (count-open.ts).
      const beacon = { utmSource: value, utmMedium: value, utmCampaign: value, page: `/sofa${value}` };
      const res = await fetch(`${s.relayUrl}/api/opened`, {
        method: 'POST',
        headers: { 'content-type': 'text/plain;charset=UTF-8', origin: ORIGIN, 'x-forwarded-for': `198.51.${phones++ % 250}.1` },
        body: JSON.stringify(beacon),
      });
      expect(res.status, name).toBe(204);
    }
    const opens = await s.relay.app.stores.report.opens(day, day);
    expect(opens.length).toBeGreaterThan(10);
    expectCleanStrings(opens, 'open groups');
    expect(opens.some((o) => FORBIDDEN.test(JSON.stringify(o)))).toBe(false);
  });
});
