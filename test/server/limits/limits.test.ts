// The callback limits over real sockets, as an attacker meets them: one number flooded, one client
// rotating numbers, a number range walked, spoofed X-Forwarded-For, and a site-wide flood that
// trips the breaker (one alert line, visible in /metrics).
import { describe, expect, it } from 'vitest';
import { ORIGIN, postCallback } from '../../support/post-callback.ts';
import { callbackCalls, errorOf, QUICK_CALLS, systemPerTest, type System } from '../../support/system.ts';

const start = systemPerTest({ ALLOWED_ORIGINS: ORIGIN, UPSTREAM_TIMEOUT_MS: '2000', TRUSTED_PROXIES: '127.0.0.1' }, { simulator: { timing: QUICK_CALLS } });

/** The client of the per-client tests. */
const CLIENT = '198.51.100.7';

/** Valid Ukrainian mobile numbers, each with its own prefix (all but the last 4 digits). */
const phone = (i: number) => `+38050${100 + i}4567`;

async function callsEnded(s: System) {
  while (s.sim.calls.some((c) => c.state !== 'ended')) await new Promise((r) => setTimeout(r, 10));
}

describe('per-number limits', () => {
  it('refuses a second call to the same number within the cooldown, from any client, with Retry-After', async () => {
    const s = await start();
    expect((await postCallback(s, { phone: '+380501110001' }, { forwardedFor: '198.51.100.1' })).status).toBe(202);
    const again = await errorOf(await postCallback(s, { phone: '+380 50 111 0001' }, { forwardedFor: '203.0.113.50' }));
    expect(again).toMatchObject({ status: 429, code: 'rate_limited' });
    expect(again.retryAfter).toBeGreaterThan(100);
    expect(again.retryAfter).toBeLessThanOrEqual(120);
    expect(again.bodyRetryAfter).toBe(again.retryAfter);
    expect(callbackCalls(s)).toHaveLength(1);
  });

  it('allows a few calls a day per number when the cooldown has passed (cooldown 0 here)', async () => {
    const s = await start({ LIMIT_NUMBER_COOLDOWN_SECONDS: '0', LIMIT_CLIENT_RATE: '8' });
    for (let i = 0; i < 3; i++) {
      expect((await postCallback(s, { phone: '+380501110002' }, { forwardedFor: `198.51.100.${10 + i}` })).status).toBe(202);
      await callsEnded(s); // the service itself refuses a number that is still in a call
    }
    expect(await errorOf(await postCallback(s, { phone: '+380501110002' }, { forwardedFor: '198.51.100.20' }))).toMatchObject({ status: 429, code: 'rate_limited' });
    expect(callbackCalls(s)).toHaveLength(3);
  });

  it('places at most one call per number at a time', async () => {
    const s = await start({ LIMIT_NUMBER_COOLDOWN_SECONDS: '0' });
    s.sim.faults.set('callback', { kind: 'delay', ms: 300, times: 1 });
    const [a, b] = await Promise.all([
      postCallback(s, { phone: '+380501110003' }, { forwardedFor: '198.51.100.1' }),
      postCallback(s, { phone: '+380501110003' }, { forwardedFor: '198.51.100.2' }),
    ]);
    expect([a.status, b.status].sort()).toEqual([202, 429]);
    expect(callbackCalls(s)).toHaveLength(1);
  });
});

describe('per-client limits', () => {
  it('lets one client reach at most two distinct numbers a day', async () => {
    const s = await start();
    expect((await postCallback(s, { phone: '+380501110011' }, { forwardedFor: CLIENT })).status).toBe(202);
    expect((await postCallback(s, { phone: '+380671110012' }, { forwardedFor: CLIENT })).status).toBe(202);
    expect(await errorOf(await postCallback(s, { phone: '+380931110013' }, { forwardedFor: CLIENT }))).toMatchObject({ status: 429, code: 'rate_limited' });
    expect(callbackCalls(s)).toHaveLength(2);
  });

  it('limits the request rate of one client (3 per 10 minutes by default)', async () => {
    const s = await start({ LIMIT_CLIENT_NUMBERS_DAILY: '10' });
    const phones = ['+380501110021', '+380671110022', '+380931110023', '+380971110024'];
    const statuses = [];
    for (const p of phones) statuses.push((await postCallback(s, { phone: p }, { forwardedFor: CLIENT })).status);
    expect(statuses).toEqual([202, 202, 202, 429]);
  });

  it('counts IPv6 clients by their /64, so rotating addresses does not help', async () => {
    const s = await start({ LIMIT_CLIENT_NUMBERS_DAILY: '10' });
    const statuses = [];
    for (let i = 1; i <= 4; i++) statuses.push((await postCallback(s, { phone: phone(i) }, { forwardedFor: `2001:db8:7:7::${i.toString(16)}` })).status);
    expect(statuses).toEqual([202, 202, 202, 429]);
    // Another /64 is another client.
    expect((await postCallback(s, { phone: '+380971119999' }, { forwardedFor: '2001:db8:7:8::1' })).status).toBe(202);
  });

  it('ignores X-Forwarded-For from an untrusted peer: spoofing a new address per request changes nothing', async () => {
    const s = await start({ TRUSTED_PROXIES: '10.0.0.0/8', LIMIT_CLIENT_NUMBERS_DAILY: '10' });
    const statuses = [];
    for (let i = 0; i < 4; i++) statuses.push((await postCallback(s, { phone: phone(i) }, { forwardedFor: `203.0.113.${i}` })).status);
    expect(statuses).toEqual([202, 202, 202, 429]);
    const row = s.sim.calls[0]!;
    expect(row.clientIp).toBe('127.0.0.1');
  });
});

describe('per-prefix velocity', () => {
  it('refuses walking through a number range from many clients', async () => {
    const s = await start({ LIMIT_PREFIX_RATE: '3' });
    const statuses = [];
    for (let i = 0; i < 5; i++) statuses.push((await postCallback(s, { phone: `+38050777000${i}` }, { forwardedFor: `198.51.100.${100 + i}` })).status);
    expect(statuses).toEqual([202, 202, 202, 429, 429]);
    expect(callbackCalls(s)).toHaveLength(3);
  });
});

describe('site-wide caps', () => {
  it('trips a breaker at the hourly cap: refuses everyone, logs one alert, shows in /metrics', async () => {
    const s = await start({ SITE_HOURLY_CAP: '3' });
    const statuses = [];
    for (let i = 0; i < 6; i++) statuses.push((await postCallback(s, { phone: phone(i) }, { forwardedFor: `198.51.100.${150 + i}` })).status);
    expect(statuses).toEqual([202, 202, 202, 503, 503, 503]);
    const last = await errorOf(await postCallback(s, { phone: '+380979876543' }, { forwardedFor: '198.51.100.200' }));
    expect(last).toMatchObject({ status: 503, code: 'temporarily_unavailable' });
    expect(last.retryAfter).toBeGreaterThan(0);
    expect(s.logs.filter((l) => String(l.msg).startsWith('ALERT'))).toHaveLength(1);
    expect(callbackCalls(s)).toHaveLength(3);

    const metrics = await (await fetch(`${s.relayUrl}/metrics`)).text();
    expect(metrics).toContain('dialback_breaker_open{window="hourly"} 1');
    expect(metrics).toMatch(/dialback_limiter_refusals_total\{reason="site_hourly_cap"\} 4/);
  });
});
