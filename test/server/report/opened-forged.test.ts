// Forged dialog opens: POST /api/opened is unauthenticated, so what it says is bounded. A department
// the relay does not offer counts nothing; pages and sources are kept as the report groups them (the
// same for leads, so a campaign is one group); one client or network starts only a few new groups a
// day; and a flood of junk groups from many networks cannot push a group with a lead into "(other)".
// Every open, counted or not, is answered 204. Counts are read from the store: this is the write side.
import { describe, expect, it } from 'vitest';
import { ORIGIN, PHONE, postCallback } from '../../support/post-callback.ts';
import { systemPerTest, type System } from '../../support/system.ts';
import { testClock } from '../../support/held-calls.ts';
import { departmentsFile, SALES } from '../../support/departments.ts';
import { OPEN_GROUPS_PER_CLIENT, OPEN_GROUPS_PER_NETWORK, OPENS_PER_CLIENT, OPENS_PER_NETWORK } from '../../../server/src/report/count-open.ts';
import { MAX_OPEN_GROUPS_PER_DAY, type ReportGroupValues } from '../../../server/src/report/report-store.ts';

const ENV = { ALLOWED_ORIGINS: ORIGIN, TRUSTED_PROXIES: '127.0.0.1', TIMEZONE: 'Europe/Kyiv' };
const start = systemPerTest(ENV);
// 08:00 in Kyiv: the hours a test moves on stay in one day.
const clock = testClock(new Date('2026-11-25T06:00:00Z'));
const startClocked = systemPerTest(ENV, { now: clock.now });

/** As navigator.sendBeacon sends a string: text/plain, from the page's origin, from `ip` (behind the trusted proxy). */
const beacon = (s: System, body: unknown, ip: string) =>
  fetch(`${s.relayUrl}/api/opened`, {
    method: 'POST',
    headers: { 'content-type': 'text/plain;charset=UTF-8', origin: ORIGIN, 'x-forwarded-for': ip },
    body: JSON.stringify(body),
  }).then((r) => r.status);

const today = (s: System) => new Intl.DateTimeFormat('en-CA', { timeZone: 'Europe/Kyiv' }).format(s.relay.app.now());
/** The day's open counts as the store keeps them, per value of one dimension. */
async function opened(s: System, by: keyof ReportGroupValues): Promise<Record<string, number>> {
  const counts: Record<string, number> = {};
  for (const o of await s.relay.app.stores.report.opens(today(s), today(s))) counts[o[by]] = (counts[o[by]] ?? 0) + o.count;
  return counts;
}

describe('forged dialog opens', () => {
  it('counts a department the relay offers and nothing for one it does not, answering 204 either way', async () => {
    const support = { ...SALES, id: 'support', name: { en: 'Support' } };
    const s = await start({ DEPARTMENTS_FILE: departmentsFile({ departments: [SALES, support] }) });
    const sent = ['sales', 'ceo-office', 'SALES', 'support', 'sales\u202e'].map((department, i) => beacon(s, { department }, `198.51.100.${i + 1}`));
    expect(await Promise.all(sent)).toEqual([204, 204, 204, 204, 204]);
    // 'sales' with a bidi override is cleaned to 'sales' first, as a callback's department is.
    expect(await opened(s, 'department')).toEqual({ sales: 2, support: 1 });

    // Without DEPARTMENTS_FILE only the one department's own id names it (as for POST /api/callback).
    const single = await start();
    expect(await beacon(single, { department: 'ceo-office' }, '198.51.100.1')).toBe(204);
    expect(await beacon(single, { utmSource: 'google' }, '198.51.100.2')).toBe(204);
    expect(await opened(single, 'department')).toEqual({ '': 1 });
  });

  it('keeps a page as its path and a utm value as the report groups it, for opens and leads alike', async () => {
    const s = await start();
    const sent = [
      { utmSource: ' NewsLetter ', utmMedium: 'EMAIL', page: '/pricing?utm_source=x#top' },
      { utmSource: 'newsletter\u202e\u0000', utmMedium: 'email\u200b', page: '/pricing/' },
      { utmSource: 'news\nletter\r\n\tweekly', page: '//pricing' },
      { utmSource: 'x'.repeat(150), page: '/a/b/c/d/e/f/g/h/i/j' },
      { utmSource: 'ціна', page: '/%d1%86%d1%96%d0%bd%d0%b0' },
      { page: '/ціна' },
      { page: `/${'p'.repeat(199)}` },
    ].map((body, i) => beacon(s, body, `198.51.100.${i + 1}`));
    expect(new Set(await Promise.all(sent))).toEqual(new Set([204]));
    expect(await opened(s, 'source')).toEqual({ newsletter: 2, 'news letter weekly': 1, ['x'.repeat(100)]: 1, ціна: 1, '': 2 });
    expect(await opened(s, 'medium')).toEqual({ email: 2, '': 5 });
    const cyrillic = '/%D1%86%D1%96%D0%BD%D0%B0';
    expect(await opened(s, 'page')).toEqual({ '/pricing': 3, '/a/b/c/d/e/f/g/h': 1, [cyrillic]: 2, [`/${'p'.repeat(159)}`]: 1 });

    // A lead from the same campaign is in the same group: its values are kept the same way.
    const lead = await postCallback(
      s,
      { phone: PHONE, attribution: { utmSource: 'NewsLetter', utmMedium: 'Email' }, pageUrl: 'https://shop.example/pricing/?gclid=1#x' },
      { forwardedFor: '192.0.2.50' },
    );
    expect(lead.status).toBe(202);
    await expect.poll(async () => (await s.relay.app.stores.report.leads(0, Date.now() + 60_000)).length).toBe(1);
    const [fact] = await s.relay.app.stores.report.leads(0, Date.now() + 60_000);
    expect(fact).toMatchObject({ source: 'newsletter', medium: 'email', campaign: '', page: '/pricing' });
  });

  it(`one client starts at most ${OPEN_GROUPS_PER_CLIENT} new groups a day and one network ${OPEN_GROUPS_PER_NETWORK}; their other new groups count as (other)`, async () => {
    const s = await startClocked();
    let n = 0;
    // One address, its full hourly opens for three hours, each open in a group of its own.
    for (let hour = 0; hour < 3; hour++) {
      for (let i = 0; i < OPENS_PER_CLIENT; i++) expect(await beacon(s, { utmSource: `client-${n++}` }, '198.51.100.7')).toBe(204);
      clock.advance(3_600_000 + 1_000);
    }
    let counts = await opened(s, 'source');
    expect(Object.keys(counts).filter((k) => k.startsWith('client-'))).toHaveLength(OPEN_GROUPS_PER_CLIENT);
    expect(counts['(other)']).toBe(3 * OPENS_PER_CLIENT - OPEN_GROUPS_PER_CLIENT);
    // A group it started still counts its opens.
    expect(await beacon(s, { utmSource: 'client-0' }, '198.51.100.7')).toBe(204);
    expect((await opened(s, 'source'))['client-0']).toBe(2);

    // Every address of one /24, one open each, each in a group of its own, for two hours.
    for (let hour = 0; hour < 2; hour++) {
      const sent = Array.from({ length: OPENS_PER_NETWORK }, (_, i) => beacon(s, { utmSource: `network-${hour}-${i}` }, `203.0.113.${hour * OPENS_PER_NETWORK + i + 1}`));
      expect(new Set(await Promise.all(sent))).toEqual(new Set([204]));
      clock.advance(3_600_000 + 1_000);
    }
    counts = await opened(s, 'source');
    expect(Object.keys(counts).filter((k) => k.startsWith('network-'))).toHaveLength(OPEN_GROUPS_PER_NETWORK);
    expect(counts['(other)']).toBe(3 * OPENS_PER_CLIENT - OPEN_GROUPS_PER_CLIENT + 2 * OPENS_PER_NETWORK - OPEN_GROUPS_PER_NETWORK);
    // The next day (24 h on) it may start new groups again.
    clock.advance(86_400_000);
    expect(await beacon(s, { utmSource: 'tomorrow' }, '198.51.100.7')).toBe(204);
    expect(await opened(s, 'source')).toEqual({ tomorrow: 1 });
  });

  it(`${MAX_OPEN_GROUPS_PER_DAY} junk groups from as many networks cannot push a group with a lead into (other)`, async () => {
    const s = await start();
    const newsletter = { utmSource: 'newsletter', utmMedium: 'email', utmCampaign: 'nov', page: '/pricing' };
    for (let i = 0; i < MAX_OPEN_GROUPS_PER_DAY; i += 100) {
      const sent = Array.from({ length: 100 }, (_, j) => beacon(s, { ...newsletter, utmSource: `junk-${i + j}` }, `100.${(i + j) >> 8}.${(i + j) & 255}.9`));
      expect(new Set(await Promise.all(sent))).toEqual(new Set([204]));
    }
    // The day is full: a group with no lead yet is (other).
    expect(await beacon(s, newsletter, '192.0.2.1')).toBe(204);
    expect((await opened(s, 'source'))['(other)']).toBe(1);
    // A visitor from the newsletter asks for a call: from then on the group's opens count under it.
    const lead = await postCallback(s, { phone: PHONE, attribution: { utmSource: 'newsletter', utmMedium: 'email', utmCampaign: 'nov' }, pageUrl: `${ORIGIN}/pricing?gclid=1` });
    expect(lead.status).toBe(202);
    await expect.poll(async () => (await s.relay.app.stores.report.leads(0, Date.now() + 60_000)).length).toBe(1);
    for (const ip of ['192.0.2.2', '192.0.2.3', '2001:db8::1']) expect(await beacon(s, newsletter, ip)).toBe(204);
    const counts = await opened(s, 'source');
    expect(counts.newsletter).toBe(3);
    expect(counts['(other)']).toBe(1);
    expect(Object.keys(counts)).toHaveLength(MAX_OPEN_GROUPS_PER_DAY + 2);
  }, 60_000);
});
