// A request target that nginx and the relay would read apart is answered 400 before routing. The
// documented nginx config, plus the owner-view allow-list an operator adds, denies /readyz and
// /owner to the internet; nginx keeps a backslash as a letter, and URL parsing made it a slash, so
// `/.\readyz` passed nginx's `location = /readyz` and was the relay's /readyz.
import { request } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { relaysExample, startNginx, type Nginx } from '../../support/nginx.ts';
import { QUICK_CALLS, startSystem, type System } from '../../support/system.ts';

const OWNER_TOKEN = 'owner_0123456789abcdef0123456789abcdef';

/** A GET of `target` exactly as written (fetch would resolve it first). */
function rawGet(base: string, target: string, headers: Record<string, string> = {}): Promise<{ status: number; body: string }> {
  const { hostname, port } = new URL(base);
  return new Promise((resolve, reject) => {
    const req = request({ host: hostname, port, path: target, headers: { connection: 'close', ...headers } }, (res) => {
      let body = '';
      res.setEncoding('utf8');
      res.on('data', (d) => (body += d));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, body }));
    });
    req.once('error', reject);
    req.end();
  });
}

let sys: System;
let nginx: Nginx;

beforeAll(async () => {
  sys = await startSystem({ OWNER_TOKEN }, { simulator: { timing: QUICK_CALLS } });
  const relayPort = Number(new URL(sys.relayUrl).port);
  // The operator keeps the owner view to the office network, as the monitoring locations are.
  const ownerAllowList = '    location /owner { allow 10.0.0.0/8; deny all; proxy_pass http://dialback; }\n}\n';
  nginx = await startNginx((port) => relaysExample(port, [relayPort]).replace(/}\s*$/, ownerAllowList));
});
afterAll(async () => {
  await nginx?.stop();
  await sys?.close();
});

describe('request targets a proxy could read otherwise', () => {
  it("through the documented nginx: a backslashed path no longer walks around nginx's locations", async () => {
    expect((await rawGet(nginx.url, '/readyz')).status).toBe(403);
    expect((await rawGet(nginx.url, '/owner/api/view', { 'x-owner-token': OWNER_TOKEN })).status).toBe(403);
    expect((await rawGet(nginx.url, '/api/status')).status).toBe(200);

    for (const target of ['/.\\readyz', '/.\\owner\\api\\view', '/x/..\\readyz']) {
      const answer = await rawGet(nginx.url, target, { 'x-owner-token': OWNER_TOKEN });
      expect({ target, status: answer.status }).toEqual({ target, status: 400 });
      expect(JSON.parse(answer.body)).toMatchObject({ error: { code: 'invalid_request' } });
    }
  });

  it('the relay itself answers each such target 400, names why, and routes every plain one as before', async () => {
    const refused: Record<string, RegExp> = {
      '/api\\status': /backslash/,
      '/api%5cstatus': /backslash/,
      '/api%2Fstatus': /encoded slash/,
      '/api/./status': /"\." or "\.\."/,
      '/x/../api/status': /"\." or "\.\."/,
      '/x/%2e%2E/api/status': /"\." or "\.\."/,
      '/api/status/.': /"\." or "\.\."/,
      '//api/status': /empty segment/,
      '/api//status': /empty segment/,
      '/api/status#top': /fragment/,
      'http://relay.example/x/../api/status': /"\." or "\.\."/,
    };
    for (const [target, why] of Object.entries(refused)) {
      const answer = await rawGet(sys.relayUrl, target);
      expect({ target, status: answer.status }).toEqual({ target, status: 400 });
      expect(JSON.parse(answer.body).error.message).toMatch(why);
    }
    for (const target of ['/api/status', '/api/status?x=a\\b&y=..', '/api/status?', 'http://relay.example/api/status', '/healthz?v=1']) {
      expect({ target, status: (await rawGet(sys.relayUrl, target)).status }).toEqual({ target, status: 200 });
    }
    // Encodings that both read alike stay as they were: an unknown path is still a 404.
    expect((await rawGet(sys.relayUrl, '/api/stat%75s')).status).toBe(404);
    expect(sys.rawLogs.join('\n')).not.toContain(OWNER_TOKEN);
  });
});
