// The dialog-open beacon (POST /api/opened): counted per day and group for the report, from an
// allowed origin only, and bounded per client and per network, so a flood from one address (or one
// network) moves the counts by a handful at most.
import { describe, expect, it } from 'vitest';
import { ORIGIN } from '../../support/post-callback.ts';
import { systemPerTest, type System } from '../../support/system.ts';
import type { LeadReport } from '../../../server/src/report/lead-report.ts';
import { OPENS_PER_CLIENT, OPENS_PER_NETWORK } from '../../../server/src/report/count-open.ts';

const start = systemPerTest({ ALLOWED_ORIGINS: ORIGIN, TRUSTED_PROXIES: '127.0.0.1', TIMEZONE: 'Europe/Kyiv' });

/** As navigator.sendBeacon sends a string: text/plain, from the page's origin. */
const beacon = (s: System, body: unknown, headers: Record<string, string> = {}) =>
  fetch(`${s.relayUrl}/api/opened`, {
    method: 'POST',
    headers: { 'content-type': 'text/plain;charset=UTF-8', origin: ORIGIN, ...headers },
    body: typeof body === 'string' ? body : JSON.stringify(body),
  });

const today = () => new Intl.DateTimeFormat('en-CA', { timeZone: 'Europe/Kyiv' }).format(new Date());
const report = async (s: System, by = 'source') => (await (await fetch(`${s.relayUrl}/owner/api/report?from=${today()}&to=${today()}&by=${by}`)).json()) as LeadReport;

describe('the dialog-open beacon', () => {
  it('counts opens per group and day, keeping no address, cookie or number', async () => {
    const s = await start();
    const spring = { utmSource: 'google', utmMedium: 'cpc', utmCampaign: 'spring', page: '/sofa' };
    for (const ip of ['198.51.100.1', '198.51.100.2', '203.0.113.7']) expect((await beacon(s, spring, { 'x-forwarded-for': ip })).status).toBe(204);
    const plain = await beacon(s, '', { 'x-forwarded-for': '192.0.2.1' });
    expect(plain.status).toBe(204);
    expect(plain.headers.get('set-cookie')).toBeNull();
    const r = await report(s);
    expect(r.groups.map((g) => [g.key, g.opened])).toEqual([
      ['google', 3],
      ['(none)', 1],
    ]);
    expect(r.totals.opened).toBe(4);
    expect(r.days.at(-1)).toMatchObject({ date: today(), opened: 4, requested: 0 });
    expect((await report(s, 'page')).groups.map((g) => [g.key, g.opened])).toEqual([
      ['/sofa', 3],
      ['(none)', 1],
    ]);
    const kept = await s.relay.app.stores.report.opens(today(), today());
    expect(JSON.stringify(kept)).not.toMatch(/198\.51|203\.0|192\.0/);
  });

  it('keeps the origin rule and refuses what is not a small beacon', async () => {
    const s = await start();
    expect((await beacon(s, {}, { origin: 'https://evil.example' })).status).toBe(403);
    const none = await fetch(`${s.relayUrl}/api/opened`, { method: 'POST', headers: { 'content-type': 'text/plain' }, body: '{}' });
    expect(none.status).toBe(403);
    expect((await beacon(s, 'not json')).status).toBe(400);
    const unknown = await beacon(s, { phone: '+380501234567' });
    expect(unknown.status).toBe(400);
    expect(await unknown.json()).toMatchObject({ error: { code: 'invalid_request' } });
    expect((await beacon(s, { page: 'https://x.example/' })).status).toBe(400);
    expect((await beacon(s, { utmSource: 'x'.repeat(3000) })).status).toBe(400);
    expect((await beacon(s, { utmSource: 'x'.repeat(9000) })).status).toBe(413);
    expect((await report(s)).totals.opened).toBe(0);
  });

  it('takes the largest beacon the widget can send: 200 characters of each utm value, in any script', async () => {
    const s = await start();
    const page = `/${'a'.repeat(199)}`;
    for (const [i, c] of ['漢', '\u0001', '😀'].entries()) {
      const utm = c.repeat(200 / c.length);
      const res = await beacon(s, { utmSource: utm, utmMedium: utm, utmCampaign: utm, page }, { 'x-forwarded-for': `192.0.2.${i + 1}` });
      expect(res.status).toBe(204);
    }
    expect((await report(s)).totals.opened).toBe(3);
  });

  it('a flood from one address moves the counts by a handful, and one from a network by its limit; every open over a limit is answered 204', async () => {
    const s = await start();
    const flooded = async () => (await s.relay.app.stores.report.opens(today(), today())).find((o) => o.source === 'flood')?.count ?? 0;
    const answers = await Promise.all(Array.from({ length: 200 }, () => beacon(s, { utmSource: 'flood' }, { 'x-forwarded-for': '198.51.100.66' }).then((r) => r.status)));
    expect(new Set(answers)).toEqual(new Set([204]));
    expect(await flooded()).toBe(OPENS_PER_CLIENT);
    // Every address of one /24: each its own handful, the network its limit.
    const spread = await Promise.all(Array.from({ length: 200 }, (_, i) => beacon(s, { utmSource: 'flood' }, { 'x-forwarded-for': `203.0.113.${i + 1}` }).then((r) => r.status)));
    expect(new Set(spread)).toEqual(new Set([204]));
    expect(await flooded()).toBe(OPENS_PER_CLIENT + OPENS_PER_NETWORK);
    // An IPv6 client rotating its /64s inside one /48: the /56 and /48 hold it.
    const v6 = await Promise.all(
      Array.from({ length: 100 }, (_, i) => beacon(s, { utmSource: 'flood' }, { 'x-forwarded-for': `2001:db8:77:${i.toString(16)}::1` }).then((r) => r.status)),
    );
    expect(new Set(v6)).toEqual(new Set([204]));
    expect(await flooded()).toBeLessThanOrEqual(OPENS_PER_CLIENT + 2 * OPENS_PER_NETWORK);
    // A visitor elsewhere is still counted.
    const before = await flooded();
    expect((await beacon(s, { utmSource: 'flood' }, { 'x-forwarded-for': '192.0.2.10' })).status).toBe(204);
    expect(await flooded()).toBe(before + 1);
  });

  it('a limiter with no room left for a new client counts nothing and answers 204 all the same', async () => {
    const s = await start({ LIMITER_MAX_KEYS: '1000' });
    for (let i = 0; i < 1100; i += 100) {
      const sent = Array.from({ length: 100 }, (_, j) => beacon(s, { utmSource: 'spread' }, { 'x-forwarded-for': `10.${(i + j) >> 8}.${(i + j) & 255}.1` }).then((r) => r.status));
      expect(new Set(await Promise.all(sent))).toEqual(new Set([204]));
    }
    const counted = (await s.relay.app.stores.report.opens(today(), today())).find((o) => o.source === 'spread')?.count;
    expect(counted).toBe(1000);
  });
});
