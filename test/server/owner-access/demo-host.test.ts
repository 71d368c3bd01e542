// Demo mode without OWNER_TOKEN: the owner view is open, so it must answer only
// requests made to the relay's own name. A page of any site can point a name of its own at the
// relay's address (DNS rebinding) and would then read and act on the owner view as "same-origin";
// its requests carry that name in Host. The view and its API answer only PUBLIC_URL's host and the
// address the request came in on (and localhost on loopback); any other Host is the unknown path's
// 404. In demo mode a state-changing request still needs proof it comes from the
// page itself (Sec-Fetch-Site: same-origin, or an Origin of the relay's own).
import { afterEach, describe, expect, it } from 'vitest';
import { postCallback } from '../../support/post-callback.ts';
import { rawRequest } from '../../support/raw-request.ts';
import { startSystem, type System } from '../../support/system.ts';

let system: System | undefined;
afterEach(async () => {
  await system?.close();
  system = undefined;
});

const OWNER_PATHS = ['/owner', '/owner/owner.js', '/owner/api/view', '/owner/api/agents', '/owner/api/leads', '/owner/api/report?from=2026-01-01&to=2026-01-02'];

describe('demo mode owner view', () => {
  it("answers only its own Host: a rebound name is the unknown path's 404", async () => {
    const s = (system = await startSystem({}, { store: 'memory' }));
    const port = new URL(s.relayUrl).port;
    const booked = await postCallback(s, { phone: '050 222 33 44', scheduledFor: new Date(Date.now() + 3_600_000).toISOString() }, { origin: s.config.http.allowedOrigins[0]! });
    const pending = (booked.json as { requestId: string }).requestId;
    const rebound = `rebind.example:${port}`;
    for (const path of OWNER_PATHS) {
      for (const host of [rebound, `127.0.0.1.rebind.example:${port}`, `127.0.0.2:${port}`, `localhost:${Number(port) + 1}`]) {
        expect([path, host, (await rawRequest(s.relayUrl, path, { headers: { host } })).status]).toEqual([path, host, 404]);
      }
      // Node itself refuses an HTTP/1.1 request without Host.
      expect([path, (await rawRequest(s.relayUrl, path, { noHost: true })).status]).toEqual([path, 400]);
      for (const host of [`127.0.0.1:${port}`, `localhost:${port}`, `LOCALHOST:${port}`]) {
        expect([path, host, (await rawRequest(s.relayUrl, path, { headers: { host } })).status]).toEqual([path, host, 200]);
      }
    }
    // The rebound page is "same-origin" to the browser, so its requests say so: still the 404.
    const cancel = `/owner/api/leads/${pending}/cancel`;
    const fromRebound = { host: rebound, origin: `http://${rebound}`, 'sec-fetch-site': 'same-origin' };
    expect((await rawRequest(s.relayUrl, cancel, { method: 'POST', headers: fromRebound })).status).toBe(404);
    expect((await rawRequest(s.relayUrl, '/owner/api/numbers/%2B380502223344', { method: 'DELETE', headers: fromRebound })).status).toBe(404);
    // Without proof it comes from the page (no Sec-Fetch-Site, no Origin of its own): the 404 too.
    expect((await rawRequest(s.relayUrl, cancel, { method: 'POST', headers: { host: `127.0.0.1:${port}` } })).status).toBe(404);
    expect((await rawRequest(s.relayUrl, cancel, { method: 'POST', headers: { host: `127.0.0.1:${port}`, origin: 'http://evil.example' } })).status).toBe(404);
    // From the page itself: done.
    expect((await rawRequest(s.relayUrl, cancel, { method: 'POST', headers: { host: `localhost:${port}`, origin: `http://localhost:${port}` } })).status).toBe(200);
  });

  it("answers PUBLIC_URL's host, with or without its default port", async () => {
    const s = (system = await startSystem({ PUBLIC_URL: 'http://calls.example.test' }, { store: 'memory' }));
    for (const host of ['calls.example.test', 'calls.example.test:80', 'Calls.Example.Test'])
      expect([host, (await rawRequest(s.relayUrl, '/owner/api/view', { headers: { host } })).status]).toEqual([host, 200]);
    expect((await rawRequest(s.relayUrl, '/owner/api/view', { headers: { host: 'calls.example.test:8080' } })).status).toBe(404);
    expect((await rawRequest(s.relayUrl, '/owner/api/view', { headers: { host: 'blog.example.test' } })).status).toBe(404);
    // The rest of the demo (its page, the widget's API) is not the owner view's business.
    expect((await rawRequest(s.relayUrl, '/healthz', { headers: { host: 'blog.example.test' } })).status).toBe(200);
  });
});
