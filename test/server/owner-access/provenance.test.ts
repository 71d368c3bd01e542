// Which requests may act as the owner (at the HTTP level; the browser's side is
// test/e2e/owner-same-site.test.ts). The session cookie says who; for a state-changing request it
// is not enough, as any page of the owner's own site makes the browser send it. The request must
// also prove it comes from the owner view: the token header, or `Sec-Fetch-Site: same-origin`, or
// (a browser without Fetch Metadata) an Origin equal to PUBLIC_URL's. Anything else is the unknown
// path's 404. A read is refused only when the browser says another origin sent it.
import { afterEach, describe, expect, it } from 'vitest';
import { postCallback } from '../../support/post-callback.ts';
import { rawRequest } from '../../support/raw-request.ts';
import { startSystem, type System } from '../../support/system.ts';

const TOKEN = 'owner_0123456789abcdef0123456789abcdef';
const PUBLIC = 'https://calls.example.com';
/** The site that embeds the widget: its pages are allowed to call the widget's API, never the owner's. */
const SHOP = 'https://shop.example.com';
let system: System | undefined;
afterEach(async () => {
  await system?.close();
  system = undefined;
});

async function ownerSystem() {
  const s = (system = await startSystem({ OWNER_TOKEN: TOKEN, PUBLIC_URL: PUBLIC, ALLOWED_ORIGINS: SHOP }));
  const page = await fetch(`${s.relayUrl}/owner?token=${TOKEN}`);
  const cookie = page.headers.get('set-cookie')!.split(';')[0]!;
  const inAnHour = new Date(Date.now() + 3_600_000).toISOString();
  const booked = await postCallback(s, { phone: '050 222 33 44', scheduledFor: inAnHour }, { origin: SHOP });
  const unknown = await rawRequest(s.relayUrl, '/owner-nothing', { method: 'POST' });
  return { s, cookie, pending: (booked.json as { requestId: string }).requestId, unknown };
}

/** Every state-changing owner route, for the booked lead. */
const actions = (pending: string) => [
  ['POST', `/owner/api/leads/${pending}/cancel`],
  ['POST', `/owner/api/leads/${pending}/never-call`],
  ['POST', `/owner/api/leads/${pending}/call-back`],
  ['DELETE', '/owner/api/numbers/%2B380502223344'],
];

describe('state-changing owner requests', () => {
  it("with the session cookie alone, or from another origin of any kind, are the unknown path's 404, and nothing is done", async () => {
    const { s, cookie, pending, unknown } = await ownerSystem();
    const notProof: Array<Record<string, string>> = [
      {},
      { origin: 'https://blog.example.com' },
      { origin: 'https://blog.example.com', 'sec-fetch-site': 'same-site' },
      { origin: 'https://evil.example', 'sec-fetch-site': 'cross-site' },
      { 'sec-fetch-site': 'same-site' },
      { 'sec-fetch-site': 'none' },
      // The browser's own word wins over an Origin it did not write.
      { origin: PUBLIC, 'sec-fetch-site': 'same-site' },
      { origin: 'null' },
      { origin: 'http://calls.example.com' },
      { origin: SHOP },
      { 'x-owner-token': `${TOKEN}x` },
    ];
    for (const [method, path] of actions(pending)) {
      for (const headers of notProof) {
        const res = await rawRequest(s.relayUrl, path!, { method, headers: { cookie, ...headers } });
        expect([method, path, headers, res.status]).toEqual([method, path, headers, 404]);
        expect(JSON.parse(res.text).error.code).toBe(JSON.parse(unknown.text).error.code);
        expect(res.headers['access-control-allow-origin']).toBeUndefined();
      }
    }
    const leads = (await (await fetch(`${s.relayUrl}/owner/api/leads`, { headers: { 'x-owner-token': TOKEN } })).json()) as { pending: Array<{ callbackId: string }> };
    expect(leads.pending.map((l) => l.callbackId)).toEqual([pending]);
    const data = (await (await fetch(`${s.relayUrl}/owner/api/numbers/%2B380502223344`, { headers: { 'x-owner-token': TOKEN } })).json()) as {
      calls: unknown[];
      neverCall: { listed: boolean };
    };
    expect(data.calls).toHaveLength(1);
    expect(data.neverCall.listed).toBe(false);
  });

  it("are done with the cookie and Sec-Fetch-Site: same-origin, or PUBLIC_URL's Origin, or with the token header alone", async () => {
    const { s, cookie, pending } = await ownerSystem();
    const act = (method: string, path: string, headers: Record<string, string>) => rawRequest(s.relayUrl, path, { method, headers });
    expect((await act('POST', `/owner/api/leads/${pending}/call-back`, { cookie, 'sec-fetch-site': 'same-origin', origin: PUBLIC })).status).toBe(409);
    expect((await act('POST', `/owner/api/leads/${pending}/cancel`, { cookie, origin: PUBLIC })).status).toBe(200);
    expect((await act('POST', `/owner/api/leads/${pending}/never-call`, { 'x-owner-token': TOKEN })).status).toBe(200);
    expect((await act('DELETE', '/owner/api/numbers/%2B380502223344', { authorization: `Bearer ${TOKEN}` })).status).toBe(200);
  });

  it('other methods too: with the cookie alone every one is the 404; with proof, the honest 405', async () => {
    const { s, cookie } = await ownerSystem();
    for (const method of ['PUT', 'PATCH', 'OPTIONS', 'POST', 'DELETE']) {
      expect([method, (await rawRequest(s.relayUrl, '/owner/api/view', { method, headers: { cookie } })).status]).toEqual([method, 404]);
      const honest = await rawRequest(s.relayUrl, '/owner/api/view', { method, headers: { cookie, 'sec-fetch-site': 'same-origin' } });
      expect([method, honest.status, honest.headers.allow]).toEqual([method, 405, 'GET']);
    }
    // A preflight from a site that embeds the widget learns nothing: no CORS, the same 404.
    const preflight = await rawRequest(s.relayUrl, '/owner/api/leads/00000000-0000-4000-8000-000000000000/cancel', {
      method: 'OPTIONS',
      headers: { origin: SHOP, 'access-control-request-method': 'POST', 'access-control-request-headers': 'x-owner-token' },
    });
    expect(preflight.status).toBe(404);
    expect(preflight.headers['access-control-allow-origin']).toBeUndefined();
  });
});

describe('owner reads', () => {
  it('are refused with the cookie when the browser says another origin or site asked; the page itself opens from anywhere', async () => {
    const { s, cookie } = await ownerSystem();
    const read = (path: string, headers: Record<string, string>) => rawRequest(s.relayUrl, path, { headers: { cookie, ...headers } }).then((r) => r.status);
    for (const path of [
      '/owner/api/view',
      '/owner/api/leads',
      '/owner/api/report?from=2026-01-01&to=2026-01-31',
      '/owner/api/report.csv?from=2026-01-01&to=2026-01-31',
      '/owner/api/calls',
      '/owner/owner.js',
    ]) {
      for (const site of ['same-site', 'cross-site']) expect([path, site, await read(path, { 'sec-fetch-site': site })]).toEqual([path, site, 404]);
      for (const headers of [{}, { 'sec-fetch-site': 'same-origin' }, { 'sec-fetch-site': 'none' }] as Array<Record<string, string>>)
        expect([path, headers, await read(path, headers)]).toEqual([path, headers, 200]);
    }
    // HEAD is a read like GET.
    expect((await rawRequest(s.relayUrl, '/owner/api/view', { method: 'HEAD', headers: { cookie, 'sec-fetch-site': 'same-site' } })).status).toBe(404);
    expect((await rawRequest(s.relayUrl, '/owner/api/view', { method: 'HEAD', headers: { cookie } })).status).toBe(200);
    // A link to the page from an email or another site opens it (the page reads and changes nothing).
    expect(await read('/owner', { 'sec-fetch-site': 'cross-site' })).toBe(200);
    // The token header is proof whatever else the request says.
    expect((await rawRequest(s.relayUrl, '/owner/api/view', { headers: { 'x-owner-token': TOKEN, 'sec-fetch-site': 'cross-site' } })).status).toBe(200);
  });
});
