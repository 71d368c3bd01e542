// What an operator sees: /metrics in Prometheus text, /readyz backed by a cached probe, a request
// id on every log line, and never the Auth-key, the hash secret or a full number anywhere.
import { describe, expect, it } from 'vitest';
import { answerOf, ORIGIN, postCallback, type Answer } from '../../support/post-callback.ts';
import { QUICK_CALLS, systemPerTest } from '../../support/system.ts';
import { createRegistry } from '../../../server/src/metrics/registry.ts';

const HASH_SECRET = 'observability-hash-secret-0123';
const start = systemPerTest({ ALLOWED_ORIGINS: ORIGIN, UPSTREAM_TIMEOUT_MS: '800', HASH_SECRET }, { simulator: { timing: QUICK_CALLS } });

describe('/metrics', () => {
  it('counts requests by route and status, service latency, refusals and the breaker', async () => {
    const s = await start();
    expect((await postCallback(s, { phone: '+380501234567' })).status).toBe(202);
    expect((await postCallback(s, { phone: '+380501234567' })).status).toBe(429);
    await fetch(`${s.relayUrl}/nope/380501234567`);
    expect((await fetch(`${s.relayUrl}/api/callback`)).status).toBe(405);
    await fetch(`${s.relayUrl}/api/status`);
    const res = await fetch(`${s.relayUrl}/metrics`);
    expect(res.headers.get('content-type')).toMatch(/^text\/plain; version=0\.0\.4/);
    const text = await res.text();
    expect(text).toContain('dialback_http_requests_total{route="/api/callback",method="POST",status="202"} 1');
    expect(text).toContain('dialback_http_requests_total{route="/api/callback",method="POST",status="429"} 1');
    expect(text).toContain('dialback_http_requests_total{route="unmatched",method="GET",status="404"} 1');
    expect(text).toContain('dialback_http_requests_total{route="/api/callback",method="GET",status="405"} 1');
    expect(text).toContain('dialback_upstream_request_duration_seconds_count{operation="callback",outcome="2xx"} 1');
    // Label order carries no meaning in the format (prom-client writes `le` first).
    expect(text).toMatch(/^dialback_upstream_request_duration_seconds_bucket\{(?=[^}]*\ble="\+Inf")(?=[^}]*\boperation="callback")(?=[^}]*\boutcome="2xx")[^}]*\} 1$/m);
    expect(text).toContain('dialback_limiter_refusals_total{reason="number_cooldown"} 1');
    expect(text).toContain('dialback_callbacks_total{outcome="accepted"} 1');
    expect(text).toContain('dialback_breaker_open{window="hourly"} 0');
    expect(text).toMatch(/dialback_limiter_keys\{table="number"\} 1/);
    // Paths and numbers never become label values.
    expect(text).not.toContain('380501234567');
    expect(text).not.toContain('/nope');
    // Every sample line is "name{labels} value" (empty lines are allowed between families; NaN and
    // ±Inf are values too: the event-loop lag mean before its first sample, the last bucket's bound).
    for (const line of text
      .trim()
      .split('\n')
      .filter((l) => l !== '' && !l.startsWith('#'))) {
      expect(line).toMatch(/^[a-z_][a-z0-9_]*(\{[^}]*\})? (-?[\d.]+(e[+-]?\d+)?|[+-]Inf|NaN|Nan)$/);
    }
    // Node's process metrics come along (prom-client's defaults), behind the same token. GC pauses
    // have samples only once a collection has run, so that family is checked by its TYPE line.
    for (const name of ['process_cpu_user_seconds_total', 'process_resident_memory_bytes', 'nodejs_heap_size_used_bytes', 'nodejs_eventloop_lag_p99_seconds']) {
      expect(text).toMatch(new RegExp(`^${name} [\\d.e+-]+$`, 'm'));
    }
    expect(text).toContain('# TYPE nodejs_gc_duration_seconds histogram');
  });

  it('needs the bearer token when METRICS_TOKEN is set', async () => {
    const s = await start({ METRICS_TOKEN: 'metrics-token-0123456789' });
    expect((await fetch(`${s.relayUrl}/metrics`)).status).toBe(404);
    expect((await fetch(`${s.relayUrl}/metrics`, { headers: { authorization: 'Bearer wrong-token-0123456789' } })).status).toBe(404);
    for (const near of ['metrics-token-012345678', 'metrics-token-0123456789x']) {
      expect((await fetch(`${s.relayUrl}/metrics`, { headers: { authorization: `Bearer ${near}` } })).status, near).toBe(404);
    }
    const res = await fetch(`${s.relayUrl}/metrics`, { headers: { authorization: 'Bearer metrics-token-0123456789' } });
    expect(res.status).toBe(200);
    expect(await res.text()).toContain('process_resident_memory_bytes');
  });

  it('escapes label values and bounds the number of series', async () => {
    const registry = createRegistry();
    const c = registry.counter('t_total', 'help', ['v']);
    c.inc({ v: 'a"b\\c\nd' });
    for (let i = 0; i < 10_000; i++) c.inc({ v: String(i) });
    const text = await registry.render();
    expect(text).toContain('t_total{v="a\\"b\\\\c\\nd"} 1');
    expect(text.split('\n').filter((l) => l.startsWith('t_total{')).length).toBeLessThanOrEqual(500);
  });

  it('counts every inc of a labelled counter, before a scrape and between two, and refuses a label it does not declare at the inc', async () => {
    const registry = createRegistry();
    const c = registry.counter('t_total', 'help', ['reason']);
    for (let i = 0; i < 3; i++) c.inc({ reason: 'a' });
    c.inc({ reason: 'b' });
    const first = await registry.render();
    expect(first).toContain('t_total{reason="a"} 3');
    expect(first).toContain('t_total{reason="b"} 1');
    c.inc({ reason: 'a' });
    expect(await registry.render()).toContain('t_total{reason="a"} 4');
    expect(await registry.render()).toContain('t_total{reason="a"} 4');
    expect(() => c.inc({ reason: 'c', other: 'x' })).toThrow(/label/i);
    expect(await registry.render()).toContain('t_total{reason="b"} 1');
  });
});

describe('/readyz', () => {
  it('is ready while the service answers, not ready when it fails, and probes at most once per cache period', async () => {
    const s = await start({ READY_CACHE_MS: '600000' });
    const first = await fetch(`${s.relayUrl}/readyz`);
    expect(first.status).toBe(200);
    expect(((await first.json()) as { status: string }).status).toBe('ready');
    await Promise.all(Array.from({ length: 20 }, () => fetch(`${s.relayUrl}/readyz`).then((r) => r.text())));
    expect(s.sim.requests.filter((r) => r.path.startsWith('/sipstatus/online')).length).toBe(1);
  });

  it('reports not ready when the service fails', async () => {
    const s = await start({ READY_CACHE_MS: '0' });
    s.sim.faults.set('sipstatus', { kind: 'status', status: 500 });
    const res = await fetch(`${s.relayUrl}/readyz`);
    expect(res.status).toBe(503);
    // Ready or not, never why: the reason is the operator's, in the log (once per change).
    const body = (await res.json()) as Record<string, unknown>;
    expect(body).toMatchObject({ status: 'not_ready' });
    expect(Object.keys(body).sort()).toEqual(['checkedAt', 'status']);
    expect(s.logs.filter((l) => l.msg === 'not ready').map((l) => l.reason)).toEqual(['CT_HTTP_STATUS']);
    s.sim.faults.clear();
    expect((await fetch(`${s.relayUrl}/readyz`)).status).toBe(200);
    expect(s.logs.filter((l) => l.msg === 'ready again')).toHaveLength(1);
  });
});

describe('logs', () => {
  it('carries the request id on every line written while serving a request', async () => {
    const s = await start();
    for (let i = 0; i < 50; i++) await fetch(`${s.relayUrl}/healthz`);
    const ids = s.logs.filter((l) => l.msg === 'request').map((l) => l.requestId);
    expect(new Set(ids).size).toBe(50);
    const res = await postCallback(s, { phone: '+380501234567' }, { headers: { 'x-request-id': 'spoofed-by-client' } });
    const id = res.headers.get('x-request-id')!;
    expect(id).toMatch(/^[A-Za-z]{22}$/); // our own id, never the client's; letters, so log masking cannot touch it
    const lines = s.logs.filter((l) => l.requestId === id);
    expect(lines.map((l) => l.msg)).toEqual(expect.arrayContaining(['callback accepted', 'request']));
    const during = s.logs.filter((l) => ['callback accepted', 'callback failed', 'request'].includes(String(l.msg)));
    expect(during.every((l) => typeof l.requestId === 'string')).toBe(true);
  });

  it('never shows the Auth-key, the hash secret or a full number, in logs or responses, whatever happens', async () => {
    const s = await start({ TRUSTED_PROXIES: '127.0.0.1' });
    const numbers = ['+380501234567', '+380671112233', '+380931234568', '+380971234569'];
    const seen: string[] = [];
    const keep = (res: Answer) => {
      seen.push(JSON.stringify([...res.headers]), res.text);
    };
    keep(await postCallback(s, { phone: numbers[0]! }));
    keep(await postCallback(s, { phone: numbers[0]! }));
    s.sim.faults.set('callback', { kind: 'rpc_error', code: 17, message: `number ${numbers[1]!.slice(1)} refused for key ${s.sim.authKey}` });
    keep(await postCallback(s, { phone: numbers[1]! }, { forwardedFor: '203.0.113.1' }));
    s.sim.faults.set('callback', { kind: 'status', status: 500, body: `fatal: ${s.sim.authKey} ${numbers[2]}` });
    keep(await postCallback(s, { phone: numbers[2]! }, { forwardedFor: '203.0.113.2' }));
    s.sim.faults.set('callback', { kind: 'hang' });
    keep(await postCallback(s, { phone: numbers[3]! }, { forwardedFor: '203.0.113.3' }));
    s.sim.faults.clear();
    keep(await postCallback(s, `{"phone":"${numbers[0]}","bogus":1}`));
    keep(await answerOf(await fetch(`${s.relayUrl}/metrics`)));
    keep(await answerOf(await fetch(`${s.relayUrl}/readyz`)));

    const haystack = [...s.rawLogs, ...seen].join('\n');
    expect(s.rawLogs.length).toBeGreaterThan(5);
    expect(haystack).not.toContain(s.sim.authKey);
    expect(haystack).not.toContain(HASH_SECRET);
    for (const n of numbers) {
      const digits = n.slice(1);
      expect(haystack).not.toContain(digits);
      expect(haystack).not.toContain(digits.slice(2)); // national form 0501234567
    }
  });
});
