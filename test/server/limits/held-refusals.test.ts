// Refusals held in process memory (limits/held-refusals.ts), as the blocked-client cache and the
// limiter's refused numbers use them: the same refusal with the wait left, within the hold and
// never past the refusal's own wait, forgotten on demand, and bounded whatever a flood sends.
import { describe, expect, it } from 'vitest';
import { HeldRefusals } from '../../../server/src/limits/held-refusals.ts';

const T0 = Date.parse('2026-11-20T10:00:00Z');
const sec = (s: number) => T0 + s * 1000;

describe('held refusals', () => {
  it('answer with the wait left until the hold is over, then nothing', () => {
    const held = new HeldRefusals({ maxHoldMs: 3_000 });
    held.hold(['client a'], { reason: 'client_rate', retryAfter: 600 }, sec(0));
    expect(held.get('client a', sec(1))).toEqual({ reason: 'client_rate', retryAfter: 599 });
    expect(held.get('client a', sec(2.5))).toEqual({ reason: 'client_rate', retryAfter: 598 });
    expect(held.get('client a', sec(3))).toBeNull();
    expect(held.get('client b', sec(1))).toBeNull();
    // A clock that went back asks again.
    expect(held.get('client a', sec(-1))).toBeNull();
  });

  it('one refusal held for several keys (a client and its network)', () => {
    const held = new HeldRefusals();
    held.hold(['client a', 'network x'], { reason: 'network_refusals', retryAfter: 300 }, sec(0));
    expect(held.get('network x', sec(2))).toEqual({ reason: 'network_refusals', retryAfter: 298 });
    expect(held.get('client a', sec(2))).toEqual({ reason: 'network_refusals', retryAfter: 298 });
  });

  it("never past the refusal's own wait: a 2 s wait is held 1 s, a 1 s wait not at all", () => {
    const held = new HeldRefusals({ maxHoldMs: 5_000 });
    held.hold(['a'], { reason: 'number_cooldown', retryAfter: 2 }, sec(0));
    expect(held.get('a', sec(0.5))).toEqual({ reason: 'number_cooldown', retryAfter: 2 });
    expect(held.get('a', sec(1))).toBeNull();
    held.hold(['b'], { reason: 'number_cooldown', retryAfter: 1 }, sec(0));
    expect(held.get('b', sec(0))).toBeNull();
  });

  it('forgets a key on demand (a refund), and holds at most maxEntries keys', () => {
    const held = new HeldRefusals({ maxHoldMs: 5_000, maxEntries: 100 });
    held.hold(['a', 'b'], { reason: 'client_rate', retryAfter: 600 }, sec(0));
    held.forget('a');
    expect(held.get('a', sec(1))).toBeNull();
    expect(held.get('b', sec(1))).not.toBeNull();
    for (let i = 0; i < 1000; i++) held.hold([`k${i}`], { reason: 'client_rate', retryAfter: 600 }, sec(0));
    expect(held.size).toBeLessThanOrEqual(100);
    expect(held.get('k999', sec(1))).not.toBeNull();
  });
});
