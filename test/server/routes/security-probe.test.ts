// What an outside probe of the relay found (the security issue), each over real sockets: idle
// connections must not hold the relay's slots, /metrics is not public, token-protected routes do
// not reveal themselves, demo mode refuses a real service without a token, and the demo folder
// serves neither dotfiles nor the owner view.
import { connect, type Socket } from 'node:net';
import { writeFileSync, cpSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { loadConfig } from '../../../server/src/config/index.ts';
import { postCallback } from '../../support/post-callback.ts';
import { startSystem, type System } from '../../support/system.ts';
import { tempDir } from '../../support/temp-dirs.ts';

const OWNER_TOKEN = 'owner_0123456789abcdef0123456789abcdef';
let system: System | undefined;
const sockets: Socket[] = [];
afterEach(async () => {
  for (const socket of sockets.splice(0)) socket.destroy();
  await system?.close();
  system = undefined;
});

/**
 * A socket from `localAddress` that sends nothing and never closes its own side. `ended`: the relay
 * closed its side (the relay's socket may still be open if it only half-closed: see `connections`).
 */
function idleSocket(url: string, localAddress = '127.0.0.1'): Promise<{ socket: Socket; answered: Promise<string>; ended: Promise<void> }> {
  const { port } = new URL(url);
  return new Promise((resolve, reject) => {
    const socket = connect({ host: '127.0.0.1', port: Number(port), localAddress, allowHalfOpen: true });
    sockets.push(socket);
    let data = '';
    const answered = new Promise<string>((done) => socket.on('data', (chunk) => done((data += chunk.toString()))));
    const ended = new Promise<void>((done) => socket.once('end', () => done()));
    socket.on('error', () => {});
    socket.once('connect', () => resolve({ socket, answered, ended }));
    socket.once('error', reject);
  });
}

const connections = (s: System) => new Promise<number>((resolve, reject) => s.relay.server.getConnections((err, n) => (err ? reject(err) : resolve(n))));

/** The relay's open connections once they settle to `expected`, or what they are after a second. */
async function settledConnections(s: System, expected: number): Promise<number> {
  const until = Date.now() + 1_000;
  let n = await connections(s);
  while (n !== expected && Date.now() < until) {
    await new Promise((r) => setTimeout(r, 20));
    n = await connections(s);
  }
  return n;
}

describe('idle connections', () => {
  it('get their 408 and then lose their slot at once, so the relay keeps serving', async () => {
    const s = (system = await startSystem({ MAX_CONNECTIONS: '20', MAX_CONNECTIONS_PER_CLIENT: '1000', HEADERS_TIMEOUT_MS: '1000' }));
    const idle = await Promise.all(Array.from({ length: 20 }, () => idleSocket(s.relayUrl)));
    const answers = await Promise.all(idle.map((i) => i.answered));
    expect(answers.every((a) => a.startsWith('HTTP/1.1 408 '))).toBe(true);
    // The attacker keeps its side open; the relay must not wait for it (a half-close would keep
    // every slot taken for as long as the attacker likes).
    await Promise.all(idle.map((i) => i.ended));
    expect(await settledConnections(s, 0)).toBe(0);
    expect((await fetch(`${s.relayUrl}/healthz`)).status).toBe(200);
  });

  it('one client holds at most MAX_CONNECTIONS_PER_CLIENT of them; a visitor from elsewhere is served', async () => {
    const s = (system = await startSystem({ MAX_CONNECTIONS: '20', MAX_CONNECTIONS_PER_CLIENT: '5', HEADERS_TIMEOUT_MS: '60000', REQUEST_TIMEOUT_MS: '60000' }));
    const attempts = await Promise.all(Array.from({ length: 30 }, () => idleSocket(s.relayUrl, '127.0.0.2')));
    // Past the fifth, each of the attacker's sockets is closed by the relay without an answer.
    const refused = await Promise.all(attempts.map((a) => Promise.race([a.ended.then(() => true), new Promise<boolean>((r) => setTimeout(() => r(false), 500))])));
    expect(refused.filter(Boolean)).toHaveLength(25);
    expect(await settledConnections(s, 5)).toBe(5);
    expect((await fetch(`${s.relayUrl}/healthz`)).status).toBe(200);
  });
});

describe('/metrics', () => {
  it("without METRICS_TOKEN, only a direct client on this machine may read it: a proxied request gets the unknown path's 404", async () => {
    const s = (system = await startSystem({ TRUSTED_PROXIES: '127.0.0.1' }));
    expect((await fetch(`${s.relayUrl}/metrics`)).status).toBe(200);
    const proxied = await fetch(`${s.relayUrl}/metrics`, { headers: { 'x-forwarded-for': '203.0.113.7' } });
    expect(proxied.status).toBe(404);
    const unknown = await fetch(`${s.relayUrl}/nothing-here`);
    expect(await proxied.json()).toEqual({ error: { code: 'not_found', message: 'Nothing is served at /metrics.' } });
    expect(unknown.status).toBe(404);
    expect((await fetch(`${s.relayUrl}/metrics`, { headers: { forwarded: 'for=203.0.113.7' } })).status).toBe(404);
  });

  it('with METRICS_TOKEN, the token is needed even on this machine', async () => {
    const s = (system = await startSystem({ METRICS_TOKEN: 'metrics_0123456789abcdef' }));
    expect((await fetch(`${s.relayUrl}/metrics`)).status).toBe(404);
    expect((await fetch(`${s.relayUrl}/metrics`, { headers: { authorization: 'Bearer metrics_0123456789abcdef' } })).status).toBe(200);
  });
});

describe('the owner view with OWNER_TOKEN', () => {
  it("answers every method and asset with the unknown path's 404 until the token is right", async () => {
    const s = (system = await startSystem({ OWNER_TOKEN }));
    const unknown = await (await fetch(`${s.relayUrl}/nothing-here`)).json();
    for (const [method, path] of [
      ['POST', '/owner'],
      ['DELETE', '/owner'],
      ['GET', '/owner'],
      ['GET', '/owner/owner.js'],
      ['GET', '/owner/owner.css'],
      ['GET', '/owner/api/calls'],
      ['PUT', '/owner/api/agents'],
    ] as const) {
      const res = await fetch(`${s.relayUrl}${path}`, { method });
      expect([method, path, res.status]).toEqual([method, path, 404]);
      expect(res.headers.get('allow')).toBeNull();
      expect(((await res.json()) as { error: { code: string } }).error.code).toBe((unknown as { error: { code: string } }).error.code);
    }
  });

  it('takes the token in the query for the page only, never for its JSON; the page sets a session cookie its script and JSON accept', async () => {
    const s = (system = await startSystem({ OWNER_TOKEN }));
    expect((await fetch(`${s.relayUrl}/owner/api/calls?token=${OWNER_TOKEN}`)).status).toBe(404);
    expect((await fetch(`${s.relayUrl}/owner/owner.js?token=${OWNER_TOKEN}`)).status).toBe(404);
    expect((await fetch(`${s.relayUrl}/owner/api/agents`, { headers: { authorization: `Bearer ${OWNER_TOKEN}` } })).status).toBe(200);
    const page = await fetch(`${s.relayUrl}/owner?token=${OWNER_TOKEN}`);
    expect(page.status).toBe(200);
    const cookie = page.headers.get('set-cookie')!;
    expect(cookie).toMatch(/^dialback_owner=\d+\.[\w-]+; Path=\/owner; HttpOnly; SameSite=Strict; Max-Age=43200$/);
    expect(cookie).not.toContain(OWNER_TOKEN);
    const session = cookie.split(';')[0]!;
    expect((await fetch(`${s.relayUrl}/owner/owner.js`, { headers: { cookie: session } })).status).toBe(200);
    expect((await fetch(`${s.relayUrl}/owner/api/agents`, { headers: { cookie: session } })).status).toBe(200);
    expect((await fetch(`${s.relayUrl}/owner/api/agents`, { headers: { cookie: 'dialback_owner=forged' } })).status).toBe(404);
    // Once the token is right and the request comes from the view itself, a wrong method is an honest
    // 405; with the cookie alone, a change is not the view's (owner-access/provenance.test.ts): the 404.
    expect((await fetch(`${s.relayUrl}/owner/api/agents`, { method: 'POST', headers: { cookie: session, 'sec-fetch-site': 'same-origin' } })).status).toBe(405);
    expect((await fetch(`${s.relayUrl}/owner/api/agents`, { method: 'POST', headers: { cookie: session } })).status).toBe(404);
  });
});

describe('demo mode with a real service', () => {
  it('refuses to start without OWNER_TOKEN, with one line naming it', () => {
    const real = {
      DEMO: 'true',
      CALLTRACKING_BASE_URL: 'https://api.example.com',
      CALLTRACKING_AUTH_KEY: 'key_0123456789',
      CALLTRACKING_PROJECT_ID: '1',
      CALLBACK_CALLER: '380441112233',
    };
    expect(() => loadConfig(real)).toThrow(/^OWNER_TOKEN: required when DEMO=true with a real service/);
    expect(() => loadConfig({ ...real, OWNER_TOKEN })).not.toThrow();
  });
});

describe('the demo folder', () => {
  it("serves neither dotfiles nor the owner view's files, which only /owner serves with its headers", async () => {
    const demoDir = tempDir('demo');
    cpSync('demo', demoDir, { recursive: true });
    writeFileSync(join(demoDir, '.env'), 'CALLTRACKING_AUTH_KEY=leak');
    const s = (system = await startSystem({ DEMO_DIR: demoDir }));
    expect((await fetch(`${s.relayUrl}/demo/demo.css`)).status).toBe(200);
    for (const path of ['/demo/.env', '/demo/owner.html', '/demo/owner.js', '/demo/owner.css']) {
      expect([path, (await fetch(`${s.relayUrl}${path}`)).status]).toEqual([path, 404]);
    }
    const owner = await fetch(`${s.relayUrl}/owner`);
    expect(owner.status).toBe(200);
    expect(owner.headers.get('x-frame-options')).toBe('DENY');
    expect(owner.headers.get('content-security-policy')).toContain("frame-ancestors 'none'");
  });
});

describe('GET /api/callback/<id>', () => {
  it("needs an allowed Origin; a browser on the relay's own pages (Sec-Fetch-Site: same-origin) counts as the relay's origin", async () => {
    const s = (system = await startSystem({ PUBLIC_URL: 'http://relay.test', ALLOWED_ORIGINS: 'http://relay.test,https://shop.example' }));
    const placed = await postCallback(s, { phone: '+380501234567', consent: true }, { origin: 'http://relay.test' });
    expect(placed.status).toBe(202);
    const { requestId } = placed.json as { requestId: string };
    const progress = (headers: Record<string, string>) => fetch(`${s.relayUrl}/api/callback/${requestId}`, { headers });
    expect((await progress({})).status).toBe(403);
    expect((await progress({ 'sec-fetch-site': 'cross-site' })).status).toBe(403);
    expect((await progress({ 'sec-fetch-site': 'same-origin' })).status).toBe(200);
    expect((await progress({ origin: 'http://relay.test' })).status).toBe(200);
    // Another allowed site cannot see it.
    expect((await progress({ origin: 'https://shop.example' })).status).toBe(404);
  });
});
