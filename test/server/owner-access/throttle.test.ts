// Wrong owner tokens are throttled: 10 an hour per client (an IPv4 address, an
// IPv6 /64) and 30 per network (IPv4 /24, IPv6 /56 and /48). Past that, no token from there is even
// compared, the right one neither, and the answer stays the unknown path's 404: nothing tells a
// guesser it was throttled or that the view exists. A session cookie already given still works, and
// the right token from another network too. On the memory store and the embedded SQLite store here;
// across relays on Redis in throttle-redis.test.ts.
import { afterEach, describe, expect, it } from 'vitest';
import { WRONG_TOKENS_PER_CLIENT, WRONG_TOKENS_PER_NETWORK } from '../../../server/src/owner-access/token-throttle.ts';
import { testClock } from '../../support/held-calls.ts';
import { startSystem, type System } from '../../support/system.ts';

const TOKEN = 'owner_0123456789abcdef0123456789abcdef';
const WRONG = 'guess_0123456789abcdef0123456789abcdef';
let system: System | undefined;
afterEach(async () => {
  await system?.close();
  system = undefined;
});

const byHeader = (s: System, token: string, ip: string) =>
  fetch(`${s.relayUrl}/owner/api/view`, { headers: { 'x-owner-token': token, 'x-forwarded-for': ip } }).then((r) => r.status);
const byQuery = (s: System, token: string, ip: string) => fetch(`${s.relayUrl}/owner?token=${token}`, { headers: { 'x-forwarded-for': ip } }).then((r) => r.status);

describe.each(['memory', 'embedded'] as const)('wrong owner tokens on the %s store', (store) => {
  const start = (clock: ReturnType<typeof testClock>) => startSystem({ OWNER_TOKEN: TOKEN, TRUSTED_PROXIES: '127.0.0.1' }, { store, now: clock.now }).then((s) => (system = s));

  it('from one client: past the limit even the right token is the 404 there, for an hour; a session given before and another network still work', async () => {
    const clock = testClock(new Date('2026-11-25T10:00:00Z'));
    const s = await start(clock);
    const page = await fetch(`${s.relayUrl}/owner?token=${TOKEN}`, { headers: { 'x-forwarded-for': '198.51.100.7' } });
    const cookie = page.headers.get('set-cookie')!.split(';')[0]!;
    for (let i = 0; i < WRONG_TOKENS_PER_CLIENT; i++) expect(await (i % 2 ? byHeader : byQuery)(s, `${WRONG}${i}`, '198.51.100.7')).toBe(404);
    expect(await byHeader(s, TOKEN, '198.51.100.7')).toBe(404);
    expect(await byQuery(s, TOKEN, '198.51.100.7')).toBe(404);
    expect((await fetch(`${s.relayUrl}/owner/api/view`, { headers: { authorization: `Bearer ${TOKEN}`, 'x-forwarded-for': '198.51.100.7' } })).status).toBe(404);
    // The owner's own tab there keeps its session; the owner elsewhere is not locked out.
    expect((await fetch(`${s.relayUrl}/owner/api/view`, { headers: { cookie, 'x-forwarded-for': '198.51.100.7' } })).status).toBe(200);
    expect(await byHeader(s, TOKEN, '203.0.113.9')).toBe(200);
    expect(await byHeader(s, TOKEN, '198.51.100.8')).toBe(200);
    clock.advance(3_600_000);
    expect(await byHeader(s, TOKEN, '198.51.100.7')).toBe(200);
    // Each refusal is logged as such, never with the token given.
    const refused = s.logs.filter((l) => l.msg === 'request' && typeof l.refused === 'string').map((l) => l.refused);
    expect(new Set(refused)).toEqual(new Set(['owner_token_wrong', 'owner_token_throttled']));
    expect(s.rawLogs.join('\n')).not.toContain(WRONG);
    expect(s.rawLogs.join('\n')).not.toContain(TOKEN);
  });

  it('spread over one network: past its limit the right token is the 404 from all of it; IPv6 /64s of one /48 likewise; other networks still work', async () => {
    const clock = testClock(new Date('2026-11-25T10:00:00Z'));
    const s = await start(clock);
    for (let i = 0; i < WRONG_TOKENS_PER_NETWORK; i++) expect(await byHeader(s, WRONG, `198.51.100.${i + 1}`)).toBe(404);
    expect(await byHeader(s, TOKEN, '198.51.100.200')).toBe(404);
    expect(await byHeader(s, TOKEN, '198.51.101.200')).toBe(200);
    for (let i = 0; i < WRONG_TOKENS_PER_NETWORK; i++) expect(await byHeader(s, WRONG, `2001:db8:77:${(i * 7).toString(16)}::1`)).toBe(404);
    expect(await byHeader(s, TOKEN, '2001:db8:77:ff00::5')).toBe(404);
    expect(await byHeader(s, TOKEN, '2001:db8:78::5')).toBe(200);
    // Requests with no token at all cost nothing and count nothing.
    for (let i = 0; i < 50; i++) expect((await fetch(`${s.relayUrl}/owner/api/view`, { headers: { 'x-forwarded-for': '192.0.2.1' } })).status).toBe(404);
    expect(await byHeader(s, TOKEN, '192.0.2.1')).toBe(200);
  });
});
