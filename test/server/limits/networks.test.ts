// Networks a visitor can rotate through (IPv4 /24, IPv6 /56 and /48) have limits of their own, and
// a surge of calls is met network by network before the site breaker refuses everyone. Over real
// sockets, with the relay's clock moved on by the test (no waits).
import { describe, expect, it } from 'vitest';
import { ORIGIN, postCallback } from '../../support/post-callback.ts';
import { callbackCalls, errorOf, QUICK_CALLS, systemPerTest, type System } from '../../support/system.ts';

const HOUR = 3_600_000;
let clock = 0;
const start = systemPerTest(
  // Every request line written (no summaries): the tests find a refusal's reason by its request id.
  // No re-dials: 40 calls at once find the simulator's agents busy when the machine is loaded, and
  // the re-dial of such a missed call is a second service call this file's counts are not about.
  { ALLOWED_ORIGINS: ORIGIN, UPSTREAM_TIMEOUT_MS: '2000', TRUSTED_PROXIES: '127.0.0.1', LOG_REPEAT_WINDOW_MS: '0', REDIAL_ATTEMPTS: '0' },
  { simulator: { timing: QUICK_CALLS }, now: () => new Date(clock) },
);
/** A fresh system whose clock starts now and moves only when the test says so. */
function startAt(env: Record<string, string> = {}): Promise<System> {
  clock = Date.now();
  return start(env);
}

/** Valid Ukrainian mobile numbers, each with its own prefix (all but the last 4 digits), so no number or prefix limit is met. */
let numbers = 0;
const freshPhone = () => `+38050${100 + (numbers++ % 900)}4567`;

/** A new /56 (and /64) of 2001:db8:1::/48 for every request: a new visitor each time, on today's per-client limits. */
let rotation = 0;
const rotatingV6 = () => {
  const r = rotation++;
  return `2001:db8:1:${(((r % 256) << 8) | ((r >> 8) & 255)).toString(16)}::1`;
};
/** Every address of 198.51.100.0/24 in turn. */
const rotatingV4 = () => `198.51.100.${rotation++ % 256}`;

/**
 * The attack of the finding, then a steady flood over two hours: a burst of 100 requests in the
 * first second, then 4 requests every 2 minutes, each from a fresh address of the network. Returns
 * the time of each accepted call.
 */
async function flood(s: System, address: () => string): Promise<number[]> {
  const t0 = clock;
  const accepted: number[] = [];
  for (let i = 0; i < 100; i++) if ((await postCallback(s, { phone: freshPhone() }, { forwardedFor: address() })).status === 202) accepted.push(clock - t0);
  for (let step = 1; step < 60; step++) {
    clock = t0 + step * 120_000;
    for (let i = 0; i < 4; i++) if ((await postCallback(s, { phone: freshPhone() }, { forwardedFor: address() })).status === 202) accepted.push(clock - t0);
  }
  return accepted;
}

/** The most accepted calls in any sliding hour. */
const worstHour = (times: number[]) => Math.max(...times.map((t) => times.filter((u) => u >= t && u < t + HOUR).length));

describe('per-network limits', () => {
  it('one IPv6 /48, a new /64 for every request: at most LIMIT_NETWORK_IPV6_48_HOURLY (20) an hour; the site stays open', async () => {
    const s = await startAt();
    const accepted = await flood(s, rotatingV6);
    expect(worstHour(accepted)).toBe(20);
    expect(accepted).toHaveLength(40);
    expect(callbackCalls(s)).toHaveLength(40);
    // A visitor from elsewhere is served: the breaker never opened.
    expect((await postCallback(s, { phone: freshPhone() }, { forwardedFor: '2001:db8:2::1' })).status).toBe(202);
    expect((await postCallback(s, { phone: freshPhone() }, { forwardedFor: '203.0.113.5' })).status).toBe(202);
    expect(s.logs.some((l) => String(l.msg).startsWith('ALERT site callback cap'))).toBe(false);
  });

  it('one IPv4 /24, a new address for every request: at most LIMIT_NETWORK_IPV4_24_HOURLY (20) an hour; the site stays open', async () => {
    const s = await startAt();
    const accepted = await flood(s, rotatingV4);
    expect(worstHour(accepted)).toBe(20);
    expect(accepted).toHaveLength(40);
    expect((await postCallback(s, { phone: freshPhone() }, { forwardedFor: '203.0.113.5' })).status).toBe(202);
    expect((await postCallback(s, { phone: freshPhone() }, { forwardedFor: '2001:db8:2::1' })).status).toBe(202);
  });

  it('a /56 has its own, lower limit (LIMIT_NETWORK_IPV6_56_HOURLY, 10), and the refusal says when to come back', async () => {
    const s = await startAt();
    const statuses = [];
    for (let i = 0; i < 12; i++) statuses.push((await postCallback(s, { phone: freshPhone() }, { forwardedFor: `2001:db8:3:${i}::1` })).status); // 2001:db8:3:0..b: one /56
    expect(statuses).toEqual([...Array(10).fill(202), 429, 429]);
    const refused = await postCallback(s, { phone: freshPhone() }, { forwardedFor: '2001:db8:3:20::1' });
    const error = await errorOf(refused);
    expect(error).toMatchObject({ status: 429, code: 'rate_limited' });
    expect(error.retryAfter).toBeGreaterThan(3500);
    expect(error.retryAfter).toBeLessThanOrEqual(3600);
    // Another /56 of the same /48 is served; an hour later the first one is too.
    expect((await postCallback(s, { phone: freshPhone() }, { forwardedFor: '2001:db8:3:100::1' })).status).toBe(202);
    clock += HOUR;
    expect((await postCallback(s, { phone: freshPhone() }, { forwardedFor: '2001:db8:3:21::1' })).status).toBe(202);
  });

  it('a network over its limit is refused before its body is read', async () => {
    const s = await startAt({ LIMIT_NETWORK_IPV4_24_HOURLY: '2' });
    expect((await postCallback(s, { phone: freshPhone() }, { forwardedFor: '198.51.100.1' })).status).toBe(202);
    expect((await postCallback(s, { phone: freshPhone() }, { forwardedFor: '198.51.100.2' })).status).toBe(202);
    const res = await postCallback(s, 'not json', { forwardedFor: '198.51.100.3' });
    expect(await errorOf(res)).toMatchObject({ status: 429, code: 'rate_limited' });
    expect(s.logs.find((l) => l.requestId === res.headers.get('x-request-id'))).toMatchObject({ refused: 'network_rate' });
  });

  it('an IPv4-mapped IPv6 address is its IPv4 address, not one /64 shared by every IPv4 visitor', async () => {
    // Written in hex (::ffff:c633:640a is 198.51.100.10), as a proxy may pass it on: http/ only
    // unwraps the dotted form, so the limiter must not take it for the /64 0:0:0:0::/64.
    const s = await startAt({ LIMIT_CLIENT_NUMBERS_DAILY: '10' });
    for (let i = 0; i < 3; i++) expect((await postCallback(s, { phone: freshPhone() }, { forwardedFor: '::ffff:c633:640a' })).status).toBe(202);
    // The same client, written the other way, is over its rate (3 per 10 minutes)…
    expect((await postCallback(s, { phone: freshPhone() }, { forwardedFor: '198.51.100.10' })).status).toBe(429);
    // …while other IPv4 visitors written the same way are visitors of their own.
    expect((await postCallback(s, { phone: freshPhone() }, { forwardedFor: '::ffff:c633:640b' })).status).toBe(202);
    expect((await postCallback(s, { phone: freshPhone() }, { forwardedFor: '::ffff:cb00:7109' })).status).toBe(202);
    expect(callbackCalls(s)).toHaveLength(5);
  });
});

describe('a surge is met network by network before the site breaker', () => {
  /** Ten /48s, each asking ten times, round-robin: 100 calls would reach the hourly cap (100). */
  async function distributedFlood(s: System): Promise<number[]> {
    const statuses: number[] = [];
    for (let round = 0; round < 10; round++) {
      for (let n = 0; n < 10; n++) statuses.push((await postCallback(s, { phone: freshPhone() }, { forwardedFor: `2001:db8:${100 + n}:${round}::1` })).status);
    }
    return statuses;
  }

  it('refuses the networks that produced the surge; other visitors are still served and the breaker stays closed', async () => {
    const s = await startAt();
    const statuses = await distributedFlood(s);
    // Two rounds (20 calls in 5 minutes: a fifth of SITE_HOURLY_CAP) make the surge; from then on
    // each of the ten networks already has SURGE_NETWORK_CALLS (2) calls in the window.
    expect(statuses.filter((x) => x === 202)).toHaveLength(20);
    expect(statuses.slice(20).every((x) => x === 429)).toBe(true);
    const refused = await postCallback(s, { phone: freshPhone() }, { forwardedFor: '2001:db8:100:99::1' });
    const error = await errorOf(refused);
    expect(error).toMatchObject({ status: 429, code: 'rate_limited' });
    expect(error.retryAfter).toBeLessThanOrEqual(300);
    expect(s.logs.find((l) => l.requestId === refused.headers.get('x-request-id'))).toMatchObject({ refused: 'surge_network' });
    // Visitors from other networks are served, one call per network at a time.
    expect((await postCallback(s, { phone: freshPhone() }, { forwardedFor: '2001:db8:200::1' })).status).toBe(202);
    expect((await postCallback(s, { phone: freshPhone() }, { forwardedFor: '203.0.113.5' })).status).toBe(202);
    expect(s.logs.filter((l) => String(l.msg).startsWith('ALERT site callbacks surging'))).toHaveLength(1);
    expect(s.logs.some((l) => String(l.msg).startsWith('ALERT site callback cap'))).toBe(false);
    // Once the window has passed, the surge is over: the same networks are served again.
    clock += 301_000;
    expect((await postCallback(s, { phone: freshPhone() }, { forwardedFor: '2001:db8:100:98::1' })).status).toBe(202);
    expect(s.logs.some((l) => l.msg === 'site callback surge over')).toBe(true);
  });

  it('SURGE_CALLS=0 and SURGE_CAP_PERCENT=0 turn the defence off: the same flood reaches the cap and the breaker refuses everyone', async () => {
    const s = await startAt({ SURGE_CALLS: '0', SURGE_CAP_PERCENT: '0' });
    const statuses = await distributedFlood(s);
    expect(statuses.filter((x) => x === 202)).toHaveLength(100);
    expect((await postCallback(s, { phone: freshPhone() }, { forwardedFor: '203.0.113.5' })).status).toBe(503);
  });
});
