// The owner's session: the cookie /owner?token=… sets carries when it was
// issued, signed with the token, and the relay judges its age by its own clock. It lasts 12 hours
// from the token, never longer (opening the page with the cookie does not renew it), and needs no
// state: any relay with the same token accepts it, across restarts; another token's relay does not.
import { createHmac } from 'node:crypto';
import { afterEach, describe, expect, it } from 'vitest';
import { testClock } from '../../support/held-calls.ts';
import { startSystem, type System } from '../../support/system.ts';

const TOKEN = 'owner_0123456789abcdef0123456789abcdef';
const HOUR = 3_600_000;
const started: System[] = [];
afterEach(async () => {
  for (const s of started.splice(0)) await s.close();
});

async function relay(clock: ReturnType<typeof testClock>, token = TOKEN) {
  const s = await startSystem({ OWNER_TOKEN: token }, { store: 'memory', now: clock.now });
  started.push(s);
  return s;
}

async function signIn(s: System): Promise<string> {
  const page = await fetch(`${s.relayUrl}/owner?token=${TOKEN}`);
  expect(page.status).toBe(200);
  return page.headers.get('set-cookie')!.split(';')[0]!;
}

const statusWith = async (s: System, cookie: string, path = '/owner/api/view') => (await fetch(`${s.relayUrl}${path}`, { headers: { cookie } })).status;

describe('the owner session', () => {
  it("lasts 12 hours from the token by the relay's clock; the page opened with it does not renew it", async () => {
    const clock = testClock(new Date('2026-11-25T10:00:00Z'));
    const s = await relay(clock);
    const cookie = await signIn(s);
    clock.advance(12 * HOUR - 1000);
    expect(await statusWith(s, cookie)).toBe(200);
    const page = await fetch(`${s.relayUrl}/owner`, { headers: { cookie } });
    expect(page.status).toBe(200);
    expect(page.headers.get('set-cookie')).toBeNull();
    clock.advance(2000);
    for (const path of ['/owner', '/owner/owner.js', '/owner/api/view', '/owner/api/leads']) expect([path, await statusWith(s, cookie, path)]).toEqual([path, 404]);
    // The token again: a new session of 12 hours.
    const again = await signIn(s);
    expect(again).not.toBe(cookie);
    expect(await statusWith(s, again)).toBe(200);
  });

  it('needs no state: a session from one relay opens another with the same token, and one restarted; not one with another token', async () => {
    const clock = testClock(new Date('2026-11-25T10:00:00Z'));
    const a = await relay(clock);
    const cookie = await signIn(a);
    await a.close();
    started.splice(started.indexOf(a), 1);
    const b = await relay(clock);
    expect(await statusWith(b, cookie)).toBe(200);
    const other = await relay(clock, 'another_0123456789abcdef0123456789abcdef');
    expect(await statusWith(other, cookie)).toBe(404);
  });

  it('refuses a session whose time was changed, one issued in the future, and the old fixed one', async () => {
    const clock = testClock(new Date('2026-11-25T10:00:00Z'));
    const s = await relay(clock);
    const cookie = await signIn(s);
    const [name, value] = cookie.split('=') as [string, string];
    const dot = value.indexOf('.');
    expect(dot).toBeGreaterThan(0);
    const issued = value.slice(0, dot);
    const signature = value.slice(dot + 1);
    // A later issue time with the same signature: refused.
    expect(issued).toMatch(/^\d+$/);
    expect(await statusWith(s, `${name}=${Number(issued) + 3600}.${signature}`)).toBe(404);
    // The relay's clock an hour behind the issue time (a session from the future): refused.
    clock.advance(-HOUR);
    expect(await statusWith(s, cookie)).toBe(404);
    clock.advance(HOUR);
    expect(await statusWith(s, cookie)).toBe(200);
    // What the cookie used to be (an HMAC of the token that never expired): refused.
    const fixed = createHmac('sha256', TOKEN).update('dialback owner view session').digest('base64url');
    expect(await statusWith(s, `${name}=${fixed}`)).toBe(404);
    expect(await statusWith(s, `${name}=${value}x`)).toBe(404);
    expect(await statusWith(s, `${name}=`)).toBe(404);
  });

  it('is not shadowed by a cookie of the same name another page of the site set first (cookie tossing)', async () => {
    const clock = testClock(new Date('2026-11-25T10:00:00Z'));
    const s = await relay(clock);
    const cookie = await signIn(s);
    // A page on blog.example.com may set `dialback_owner` for the whole site with a longer path: the browser sends it first.
    expect(await statusWith(s, `dialback_owner=0.${'A'.repeat(43)}; ${cookie}`)).toBe(200);
    expect(await statusWith(s, `other=1; dialback_owner=junk; ${cookie}; dialback_owner=more-junk`)).toBe(200);
  });
});
