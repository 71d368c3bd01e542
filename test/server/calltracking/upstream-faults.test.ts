// A misbehaving service, through the simulator's fault switches: every failure ends in one
// distinct public code within the time limit, the service is asked at most once (twice only when
// the connection provably never opened), and its error text never reaches the visitor.
import { describe, expect, it } from 'vitest';
import type { Fault } from '../../../server/simulator/index.ts';
import { deadUrl } from '../../support/listen.ts';
import { ORIGIN, postCallback } from '../../support/post-callback.ts';
import { callbackCalls, QUICK_CALLS, systemPerTest } from '../../support/system.ts';

const TIMEOUT_MS = 800;
/** A generous bound: an answer later than this means the relay hung. */
const HUNG_AFTER_MS = TIMEOUT_MS * 2 + 3000;
const start = systemPerTest({ ALLOWED_ORIGINS: ORIGIN, UPSTREAM_TIMEOUT_MS: String(TIMEOUT_MS) }, { simulator: { timing: QUICK_CALLS } });

/** Gives up on an answer that comes later than HUNG_AFTER_MS. */
const untilHung = () => ({ signal: AbortSignal.timeout(HUNG_AFTER_MS) });

const cases: Array<{ name: string; fault: Fault; status: number; code: string }> = [
  { name: 'connection reset before acting', fault: { kind: 'reset' }, status: 502, code: 'upstream_unknown' },
  { name: 'connection reset after placing the call', fault: { kind: 'reset', handled: true }, status: 502, code: 'upstream_unknown' },
  { name: 'no answer at all (hang)', fault: { kind: 'hang' }, status: 504, code: 'upstream_timeout' },
  { name: 'slower than the timeout', fault: { kind: 'delay', ms: TIMEOUT_MS * 3 }, status: 504, code: 'upstream_timeout' },
  { name: 'HTTP 500', fault: { kind: 'status', status: 500, body: 'Fatal error in /var/www/api.php line 42' }, status: 502, code: 'upstream_unknown' },
  { name: 'HTTP 503 with Retry-After', fault: { kind: 'status', status: 503, retryAfter: 120 }, status: 503, code: 'upstream_unavailable' },
  { name: 'HTTP 429', fault: { kind: 'status', status: 429 }, status: 503, code: 'upstream_unavailable' },
  { name: 'an HTML maintenance page', fault: { kind: 'html' }, status: 502, code: 'upstream_unknown' },
  { name: 'truncated JSON', fault: { kind: 'truncated' }, status: 502, code: 'upstream_unknown' },
  { name: 'truncated JSON after placing the call', fault: { kind: 'truncated', handled: true }, status: 502, code: 'upstream_unknown' },
  { name: 'a JSON-RPC error object', fault: { kind: 'rpc_error', code: 17, message: 'Outbound calls are banned: internal ref SECRET-42' }, status: 502, code: 'upstream_rejected' },
  { name: 'HTTP 403 (Auth-key refused)', fault: { kind: 'status', status: 403, body: '{"error":{"code":403,"message":"bad key"}}' }, status: 503, code: 'upstream_unavailable' },
];

describe('service faults', () => {
  for (const c of cases) {
    it(`${c.name} → ${c.status} ${c.code}, asked once`, async () => {
      const s = await start();
      s.sim.faults.set('callback', c.fault);
      const answer = await postCallback(s, { phone: '+380501234567' }, untilHung());
      expect({ status: answer.status, code: answer.code }).toEqual({ status: c.status, code: c.code });
      expect(callbackCalls(s)).toHaveLength(1);
      // The service's own words stay in our logs.
      for (const leak of ['SECRET-42', '/var/www', 'Fatal', 'maintenance', 'bad key', '<']) expect(answer.text).not.toContain(leak);
      expect(s.logs.some((l) => l.msg === 'callback failed')).toBe(true);
    });
  }

  it('connection refused, with holding off (QUEUE_MAX_WAIT_SECONDS=0) → 503 upstream_unavailable after exactly one retry (it was never sent)', async () => {
    const s = await start({
      CALLTRACKING_BASE_URL: await deadUrl(),
      CALLTRACKING_AUTH_KEY: 'refused-auth-key-1234',
      CALLTRACKING_PROJECT_ID: '1',
      CALLBACK_CALLER: '380441112233',
      ALLOWED_ORIGINS: ORIGIN,
      QUEUE_MAX_WAIT_SECONDS: '0',
    });
    const answer = await postCallback(s, { phone: '+380501234567' }, untilHung());
    expect({ status: answer.status, code: answer.code }).toEqual({ status: 503, code: 'upstream_unavailable' });
    expect(s.logs.filter((l) => l.msg === 'service connection never opened; retrying once')).toHaveLength(1);
    const metrics = await (await fetch(`${s.relayUrl}/metrics`)).text();
    expect(metrics).toContain('dialback_upstream_request_duration_seconds_count{operation="callback",outcome="connect_error"} 2');
    // Nothing reached the service, so nothing was counted: the visitor may try again at once.
    const again = await postCallback(s, { phone: '+380501234567' }, untilHung());
    expect(again.code).toBe('upstream_unavailable');
  });

  it('recovers when the fault clears: the next request is placed normally', async () => {
    const s = await start();
    s.sim.faults.set('callback', { kind: 'reset', times: 1 });
    expect((await postCallback(s, { phone: '+380501234567' }, untilHung())).status).toBe(502);
    s.sim.faults.clear();
    const res = await postCallback(s, { phone: '+380671234567' });
    expect(res.status).toBe(202);
  });
});
