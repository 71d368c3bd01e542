// GET /api/status, the widget files and the health check, over real sockets.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { gunzipSync, brotliDecompressSync } from 'node:zlib';
import { request } from 'undici';
import { startSystem, type System } from '../../support/system.ts';

const ORIGIN = 'https://shop.example';
let system: System;
beforeAll(async () => {
  system = await startSystem({ ALLOWED_ORIGINS: ORIGIN, STATUS_CACHE_MS: '60000' });
});
afterAll(() => system.close());

describe('GET /api/status', () => {
  it('counts agents from the service and caches the answer', async () => {
    const agents = system.sim.agents.list();
    const online = agents.filter((a) => a.online).length;
    const res = await fetch(`${system.relayUrl}/api/status`, { headers: { origin: ORIGIN } });
    expect(res.status).toBe(200);
    expect(res.headers.get('access-control-allow-origin')).toBe(ORIGIN);
    // Always open (no WORKING_HOURS): one window, from the current minute to SCHEDULE_MAX_DAYS (7) ahead.
    expect(await res.json()).toEqual({
      available: true,
      agentsOnline: online,
      agentsFree: online,
      openNow: true,
      nextOpenAt: null,
      source: 'live',
      windows: [{ opensAt: expect.any(String), closesAt: expect.any(String) }],
    });

    const before = system.sim.requests.length;
    const again = await Promise.all([1, 2, 3].map(() => fetch(`${system.relayUrl}/api/status`).then((r) => r.json())));
    expect(again.every((s) => s.source === 'cached' && s.agentsOnline === online)).toBe(true);
    expect(system.sim.requests.length).toBe(before);
  });

  it('a failing service is asked once per cache period too, and the answer is unknown, not "nobody"', async () => {
    const down = await startSystem({ ALLOWED_ORIGINS: ORIGIN, STATUS_CACHE_MS: '60000' });
    try {
      down.sim.faults.set('sipstatus', { kind: 'status', status: 503 });
      const sipRequests = () => down.sim.requests.filter((r) => r.path.startsWith('/sipstatus/')).length;
      const first = (await (await fetch(`${down.relayUrl}/api/status`)).json()) as { source: string; available: boolean };
      expect(first).toMatchObject({ source: 'unknown', available: true });
      const asked = sipRequests();
      expect(asked).toBeGreaterThan(0);
      const again = await Promise.all(Array.from({ length: 10 }, () => fetch(`${down.relayUrl}/api/status`).then((r) => r.json() as Promise<{ source: string }>)));
      expect(again.every((s) => s.source === 'unknown')).toBe(true);
      expect(sipRequests()).toBe(asked);
    } finally {
      await down.close();
    }
  });

  it('answers from a new snapshot once the cache period has passed, never the reply made from the last one', async () => {
    const quick = await startSystem({ ALLOWED_ORIGINS: ORIGIN, STATUS_CACHE_MS: '100' });
    try {
      const status = async () => (await (await fetch(`${quick.relayUrl}/api/status`)).json()) as { agentsOnline: number; source: string };
      const online = quick.sim.agents.list().filter((a) => a.online);
      expect((await status()).agentsOnline).toBe(online.length);
      expect((await status()).source).toBe('cached');
      quick.sim.agents.setOnline(online[0]!.login, false);
      await new Promise((r) => setTimeout(r, 150));
      expect(await status()).toMatchObject({ agentsOnline: online.length - 1, source: 'live' });
    } finally {
      await quick.close();
    }
  });

  it('refuses a foreign origin', async () => {
    const res = await fetch(`${system.relayUrl}/api/status`, { headers: { origin: 'https://evil.example' } });
    expect(res.status).toBe(403);
  });
});

describe('widget files', () => {
  it('serves widget.js compressed, with an ETag that revalidates', async () => {
    const gz = await request(`${system.relayUrl}/widget.js`, { headers: { 'accept-encoding': 'gzip' } });
    expect(gz.statusCode).toBe(200);
    expect(gz.headers['content-type']).toMatch(/javascript/);
    expect(gz.headers['content-encoding']).toBe('gzip');
    expect(gz.headers['cache-control']).toMatch(/max-age=\d+/);
    const source = gunzipSync(Buffer.from(await gz.body.arrayBuffer())).toString('utf8');
    expect(source.length).toBeGreaterThan(100);

    const br = await request(`${system.relayUrl}/widget.js`, { headers: { 'accept-encoding': 'gzip, br' } });
    expect(br.headers['content-encoding']).toBe('br');
    expect(brotliDecompressSync(Buffer.from(await br.body.arrayBuffer())).toString('utf8')).toBe(source);

    const etag = String(gz.headers.etag);
    const revalidated = await request(`${system.relayUrl}/widget.js`, { headers: { 'if-none-match': etag, 'accept-encoding': 'gzip' } });
    expect(revalidated.statusCode).toBe(304);
    expect(revalidated.headers.etag).toBe(etag);
    await revalidated.body.dump();
  });

  it('gives each content coding of widget.js its own strong ETag, and revalidates each with its own only', async () => {
    const get = async (encoding: string | null, ifNoneMatch?: string) => {
      const res = await request(`${system.relayUrl}/widget.js`, {
        headers: { ...(encoding !== null && { 'accept-encoding': encoding }), ...(ifNoneMatch && { 'if-none-match': ifNoneMatch }) },
      });
      await res.body.dump();
      return { status: res.statusCode, etag: String(res.headers.etag), coding: res.headers['content-encoding'] ?? null };
    };
    const [br, gzip, identity] = [await get('br'), await get('gzip'), await get(null)];
    expect([br.coding, gzip.coding, identity.coding]).toEqual(['br', 'gzip', null]);
    expect(new Set([br.etag, gzip.etag, identity.etag]).size).toBe(3);
    for (const etag of [br.etag, gzip.etag, identity.etag]) expect(etag).toMatch(/^"[^"]+"$/);
    // Each revalidates with its own ETag (a weak form too), never with another coding's.
    expect((await get('br', br.etag)).status).toBe(304);
    expect((await get('gzip', `W/${gzip.etag}`)).status).toBe(304);
    expect((await get(null, identity.etag)).status).toBe(304);
    expect(await get('br', gzip.etag)).toEqual({ status: 200, etag: br.etag, coding: 'br' });
    expect(await get(null, br.etag)).toEqual({ status: 200, etag: identity.etag, coding: null });
  });

  it('serves hashed chunks for a year, readable cross-origin, and 404s unknown ones', async () => {
    const { readdirSync } = await import('node:fs');
    const chunk = readdirSync('dist/widget/chunks').find((f) => f.endsWith('.js'));
    expect(chunk).toBeDefined();
    const res = await fetch(`${system.relayUrl}/chunks/${chunk}`);
    expect(res.status).toBe(200);
    expect(res.headers.get('cache-control')).toContain('immutable');
    expect(res.headers.get('access-control-allow-origin')).toBe('*');
    const missing = await fetch(`${system.relayUrl}/chunks/nope-123.js`);
    expect(missing.status).toBe(404);
    expect((await missing.json()).error.code).toBe('not_found');
    // An encoded slash is refused before routing (a proxy in front could read it as a real one).
    const traversal = await fetch(`${system.relayUrl}/chunks/..%2F..%2Fpackage.json`);
    expect(traversal.status).toBe(400);
    expect((await traversal.json()).error.code).toBe('invalid_request');
  });
});

describe('health and demo pages', () => {
  it('answers /healthz', async () => {
    const res = await fetch(`${system.relayUrl}/healthz`);
    expect(await res.json()).toEqual({ status: 'ok' });
  });

  it('serves the demo page embedding the widget by script tag in demo mode', async () => {
    const res = await fetch(`${system.relayUrl}/`);
    expect(res.status).toBe(200);
    expect(await res.text()).toMatch(/<script[^>]+src="\/widget\.js"[^>]*async/);
  });

  it('serves no demo page outside demo mode', async () => {
    const prod = await startSystem({ ALLOWED_ORIGINS: ORIGIN, DEMO: 'false' });
    try {
      expect((await fetch(`${prod.relayUrl}/`)).status).toBe(404);
    } finally {
      await prod.close();
    }
  });
});
