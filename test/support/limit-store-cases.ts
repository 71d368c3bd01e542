// The LimitStore contract: one set of cases that every store must pass with the same answers
// (memory, Redis, SQLite). A runner calls `limitStoreCases` inside its own describe with a factory
// that gives a fresh, empty store; the cases never look inside a store, only at its answers.
//
// The clock: every case drives `nowMs` itself. T0 is chosen so that epoch seconds at T0 are 1 past a
// whole day (T0/1000 ≡ 1 mod 86,400), which is exactly where the memory store, created with
// startMs = T0, puts its own clock (second n + 1 at T0 + n s). So stores whose windows are aligned to
// the epoch (Redis, SQLite) and the memory store agree on every window boundary, and the same
// retryAfter figures hold for all of them.
import { createHash } from 'node:crypto';
import { expect, it } from 'vitest';
import type { LimitCheck, LimitStore } from '../../server/src/limits/limit-store.ts';

export const T0 = (19_676 * 86_400 + 1) * 1000;
export const sec = (n: number) => T0 + n * 1000;
export const hex = (s: string) => createHash('sha256').update(s).digest('hex').slice(0, 32);

/** A fresh, empty store; `startMs` is T0 (stores with their own clock origin need it). */
export type LimitStoreFactory = (startMs: number) => Promise<LimitStore>;

export const numberCheck = (n: string): LimitCheck => ({
  table: 'number',
  key: hex(n),
  counts: [
    { reason: 'number_cooldown', limit: 1, windowSec: 120 },
    { reason: 'number_daily', limit: 3, windowSec: 86_400 },
  ],
});
const siteCheck = (limit: number): LimitCheck => ({ table: 'site', key: hex('s'), counts: [{ reason: 'site_hourly_cap', limit, windowSec: 3600 }] });
const numbersCheck = (n: string): LimitCheck => ({
  table: 'client_numbers',
  key: hex('client'),
  distinct: { reason: 'client_numbers', limit: 2, windowSec: 86_400, member: hex(n) },
});

export function limitStoreCases(create: LimitStoreFactory): void {
  const fresh = () => create(T0);

  /** Consumes `check` and refunds what it counted; the consume must be allowed. */
  async function consumeAndRefund(store: LimitStore, check: LimitCheck, at: number): Promise<void> {
    const decision = await store.consume([check], at);
    if (!decision.ok) throw new Error(`expected room, got ${JSON.stringify(decision.refusals)}`);
    await store.refund(decision.receipt);
  }

  it('keeps an exact cooldown and daily cap per key, with the wait until the next allowed request', async () => {
    const store = await fresh();
    expect((await store.consume([numberCheck('a')], sec(0))).ok).toBe(true);
    expect(await store.consume([numberCheck('a')], sec(100))).toEqual({ ok: false, refusals: [{ reason: 'number_cooldown', retryAfter: 20 }] });
    expect((await store.consume([numberCheck('b')], sec(100))).ok).toBe(true);
    expect((await store.consume([numberCheck('a')], sec(120))).ok).toBe(true);
    expect((await store.consume([numberCheck('a')], sec(240))).ok).toBe(true);
    expect(await store.consume([numberCheck('a')], sec(400))).toEqual({ ok: false, refusals: [{ reason: 'number_daily', retryAfter: 86_400 - 400 }] });
    // A day after the first, one place is free again.
    expect((await store.consume([numberCheck('a')], sec(86_400))).ok).toBe(true);
  });

  it('reports every rule and every check that refuses, not only the first', async () => {
    const store = await fresh();
    const client: LimitCheck = { table: 'client', key: hex('c'), counts: [{ reason: 'client_rate', limit: 1, windowSec: 600 }] };
    for (const at of [0, 120, 240]) expect((await store.consume([numberCheck('a'), { ...client, key: hex(`c${at}`) }], sec(at))).ok).toBe(true);
    expect((await store.consume([client], sec(250))).ok).toBe(true);
    // The number is over its cooldown and its daily cap; the client over its rate.
    const refused = await store.consume([numberCheck('a'), client], sec(300));
    expect(refused.ok).toBe(false);
    if (!refused.ok) {
      expect(refused.refusals).toEqual(
        expect.arrayContaining([
          { reason: 'number_cooldown', retryAfter: 60 },
          { reason: 'number_daily', retryAfter: 86_100 },
          { reason: 'client_rate', retryAfter: 550 },
        ]),
      );
      expect(refused.refusals).toHaveLength(3);
    }
  });

  it('refuses all or nothing: a refused plan counts against none of its keys', async () => {
    const store = await fresh();
    const client: LimitCheck = { table: 'client', key: hex('c'), counts: [{ reason: 'client_rate', limit: 2, windowSec: 600 }] };
    expect((await store.consume([numberCheck('a'), client], sec(0))).ok).toBe(true);
    // The number refuses, so the client's second place stays free.
    expect((await store.consume([numberCheck('a'), client], sec(10))).ok).toBe(false);
    expect((await store.consume([numberCheck('b'), client], sec(20))).ok).toBe(true);
    const third = await store.consume([numberCheck('c'), client], sec(30));
    expect(third.ok === false && third.refusals.map((r) => r.reason)).toEqual(['client_rate']);
    // ... and the number c, refused with the client, is untouched.
    expect((await store.consume([numberCheck('c')], sec(31))).ok).toBe(true);
  });

  it('peek tells what one check would meet now, counting and creating nothing', async () => {
    const store = await fresh();
    const client: LimitCheck = {
      table: 'client',
      key: hex('p'),
      counts: [
        { reason: 'client_rate', limit: 2, windowSec: 600 },
        { reason: 'client_daily', limit: 20, windowSec: 86_400 },
      ],
    };
    // Unknown table, then unknown key: nothing met.
    expect(await store.peek(client, sec(0))).toEqual([]);
    expect((await store.consume([{ ...client, key: hex('other') }], sec(0))).ok).toBe(true);
    expect(await store.peek(client, sec(0))).toEqual([]);
    for (let i = 0; i < 50; i++) expect(await store.peek(client, sec(1))).toEqual([]);
    // Peeking counted nothing: the full rate is still there.
    expect((await store.consume([client], sec(10))).ok).toBe(true);
    expect((await store.consume([client], sec(20))).ok).toBe(true);
    const blocked = await store.peek(client, sec(30));
    expect(blocked).toEqual([{ reason: 'client_rate', retryAfter: 580 }]);
    // The same answer consume gives, and the wait is honest.
    expect(await store.consume([client], sec(30))).toEqual({ ok: false, refusals: blocked });
    expect(await store.peek(client, sec(610))).toEqual([]);
    // A different rule set for the same table is a programming error, as in consume.
    await expect(store.peek({ ...client, counts: [{ reason: 'client_rate', limit: 3, windowSec: 600 }] }, sec(0))).rejects.toThrow(/two different rule sets/);
  });

  it('counts large limits with a weighted two-window counter, and keeps its promised wait', async () => {
    const store = await fresh();
    const site = siteCheck(10);
    for (let i = 0; i < 10; i++) expect((await store.consume([site], sec(i))).ok).toBe(true);
    const over = await store.consume([site], sec(20));
    expect(over.ok).toBe(false);
    if (over.ok) return;
    expect(over.refusals).toHaveLength(1);
    const { reason, retryAfter } = over.refusals[0]!;
    expect(reason).toBe('site_hourly_cap');
    // 10 in the first window: room comes back once the next window has weighed it down to 9.
    // The window ends at sec(3599); 9/10 of the next one is 360 s in: sec(3959).
    expect(retryAfter).toBe(3959 - 20);
    expect((await store.consume([site], sec(20 + retryAfter - 1))).ok).toBe(false);
    expect((await store.consume([site], sec(20 + retryAfter))).ok).toBe(true);
  });

  it('lets a client reach a few distinct numbers a day, repeating one of them freely', async () => {
    const store = await fresh();
    expect((await store.consume([numbersCheck('a')], sec(0))).ok).toBe(true);
    expect((await store.consume([numbersCheck('b')], sec(1))).ok).toBe(true);
    expect((await store.consume([numbersCheck('a')], sec(2))).ok).toBe(true);
    expect(await store.consume([numbersCheck('c')], sec(3))).toEqual({ ok: false, refusals: [{ reason: 'client_numbers', retryAfter: 86_400 - 3 }] });
    expect(await store.peek(numbersCheck('c'), sec(3))).toEqual([{ reason: 'client_numbers', retryAfter: 86_400 - 3 }]);
    expect(await store.peek(numbersCheck('a'), sec(3))).toEqual([]);
    expect((await store.consume([numbersCheck('c')], sec(86_401))).ok).toBe(true);
  });

  it('gives back what a refunded request counted', async () => {
    const store = await fresh();
    const site = siteCheck(9);
    const first = await store.consume([numberCheck('a'), site], sec(0));
    expect(first.ok).toBe(true);
    if (first.ok) await store.refund(first.receipt);
    expect((await store.consume([numberCheck('a'), site], sec(1))).ok).toBe(true);
    // Given back once, not twice: the number is on cooldown now.
    expect((await store.consume([numberCheck('a')], sec(2))).ok).toBe(false);
  });

  it('gives back one place of a counter at its limit, in the same window', async () => {
    const store = await fresh();
    const site = siteCheck(10);
    for (let i = 0; i < 9; i++) expect((await store.consume([site], sec(i))).ok).toBe(true);
    await consumeAndRefund(store, site, sec(9));
    expect((await store.consume([site], sec(10))).ok).toBe(true);
    // One place was given back, not more.
    expect((await store.consume([site], sec(11))).ok).toBe(false);
  });

  it('gives back a counter place of the previous window after the window has moved on', async () => {
    const store = await fresh();
    const site = siteCheck(10);
    // The second hourly window starts at sec(3599) (see T0).
    const intoSecondWindow = (fraction: number) => sec(3599 + Math.round(3600 * fraction));
    for (let i = 0; i < 9; i++) expect((await store.consume([site], sec(i))).ok).toBe(true);
    const tenth = await store.consume([site], sec(9));
    if (!tenth.ok) throw new Error('the tenth request fits the limit');
    // 12% into the next window the first window weighs 10 × 0.88 = 8.8: room for one.
    expect((await store.consume([site], intoSecondWindow(0.12))).ok).toBe(true);
    await store.refund(tenth.receipt);
    // At 15%, 9 × 0.85 + 1 = 8.65 leaves room; without the refund 10 × 0.85 + 1 = 9.5 would not.
    expect((await store.consume([site], intoSecondWindow(0.15))).ok).toBe(true);
    expect((await store.consume([site], intoSecondWindow(0.15))).ok).toBe(false);
  });

  it('gives back a distinct member of a full set', async () => {
    const store = await fresh();
    expect((await store.consume([numbersCheck('a')], sec(0))).ok).toBe(true);
    await consumeAndRefund(store, numbersCheck('b'), sec(1));
    expect((await store.consume([numbersCheck('c')], sec(2))).ok).toBe(true);
    // b's place went to c: the set is full again.
    expect((await store.consume([numbersCheck('d')], sec(3))).ok).toBe(false);
  });

  it('holds at most the configured in-flight requests per key, until released or expired', async () => {
    const store = await fresh();
    expect(await store.acquire('k', 1, 10_000, sec(0))).toBe(true);
    expect(await store.acquire('k', 1, 10_000, sec(1))).toBe(false);
    await store.release('k');
    expect(await store.acquire('k', 1, 10_000, sec(2))).toBe(true);
    // A lost release cannot block the number for longer than the TTL.
    expect(await store.acquire('k', 1, 10_000, sec(13))).toBe(true);
    // Two slots: the third waits; releasing one lets one more in.
    expect(await store.acquire('two', 2, 10_000, sec(20))).toBe(true);
    expect(await store.acquire('two', 2, 10_000, sec(20))).toBe(true);
    expect(await store.acquire('two', 2, 10_000, sec(21))).toBe(false);
    await store.release('two');
    expect(await store.acquire('two', 2, 10_000, sec(22))).toBe(true);
    expect(await store.acquire('two', 2, 10_000, sec(22))).toBe(false);
  });

  it('answers peeks and consumes made at once (one tick) as if made one by one, each all or nothing', async () => {
    const store = await fresh();
    const client: LimitCheck = { table: 'client', key: hex('tick'), counts: [{ reason: 'client_rate', limit: 1, windowSec: 600 }] };
    // The same number twice at once: the first is counted, the second meets its cooldown.
    const [first, second, other] = await Promise.all([store.consume([numberCheck('t')], sec(0)), store.consume([numberCheck('t')], sec(0)), store.consume([client], sec(0))]);
    expect([first.ok, second, other.ok]).toEqual([true, { ok: false, refusals: [{ reason: 'number_cooldown', retryAfter: 120 }] }, true]);
    // A refused consume beside an allowed one counts nothing of its own keys, and does not stop the other.
    const fresh2: LimitCheck = { ...client, key: hex('tick2') };
    const [refused, allowed] = await Promise.all([store.consume([fresh2, client], sec(1)), store.consume([numberCheck('u')], sec(1))]);
    expect([refused.ok, allowed.ok]).toEqual([false, true]);
    expect(await Promise.all([store.peek(fresh2, sec(2)), store.peek(client, sec(2)), store.peek(numberCheck('t'), sec(2)), store.peek(numberCheck('none'), sec(2))])).toEqual([
      [],
      [{ reason: 'client_rate', retryAfter: 598 }],
      [{ reason: 'number_cooldown', retryAfter: 118 }],
      [],
    ]);
  });

  it('counts a refusal’s strikes: the next look sees them at once, none past its limit, and a consume of the record judges them', async () => {
    const store = await fresh();
    // Through `strike` where a store has it (Redis holds strikes a moment before writing them),
    // else the consume the limiter uses; not waited for, as the limiter does not wait.
    const strike = (check: LimitCheck, at: number) =>
      store.strike ? store.strike(check, at) : store.consume([check], at).then((d) => d.ok || d.refusals.every((r) => r.reason !== 'limiter_full'));
    const client: LimitCheck = { table: 'client_refusals', key: hex('striker'), counts: [{ reason: 'client_refusals', limit: 3, windowSec: 600 }] };
    const network: LimitCheck = { table: 'network_refusals', key: hex('striker net'), counts: [{ reason: 'network_refusals', limit: 20, windowSec: 600 }] };
    const taken: Promise<boolean>[] = [];
    for (let i = 0; i < 5; i++) taken.push(strike(client, sec(i % 2)), strike(network, sec(0)));
    expect(await Promise.all([store.peek(client, sec(2)), store.peek(network, sec(2))])).toEqual([[{ reason: 'client_refusals', retryAfter: 598 }], []]);
    // The two past the limit were not counted (a subject at its limit records nothing more), and had room to be refused.
    expect(await Promise.all(taken)).toEqual(Array(10).fill(true));
    expect(await store.peek(client, sec(601))).toEqual([]);
    // A CAPTCHA's strike charged up front (a consume, all or nothing) counts the strikes before it.
    const charged: LimitCheck = { ...client, key: hex('charged') };
    void strike(charged, sec(3));
    void strike(charged, sec(3));
    expect((await store.consume([charged, network], sec(3))).ok).toBe(true);
    expect(await store.consume([charged, network], sec(3))).toEqual({ ok: false, refusals: [{ reason: 'client_refusals', retryAfter: 600 }] });
  });

  it('keeps every key apart: 1,000 numbers each get exactly one call per cooldown', async () => {
    const store = await fresh();
    const numbers = Array.from({ length: 1000 }, (_, i) => numberCheck(`n${i}`));
    const first = await Promise.all(numbers.map((c) => store.consume([c], sec(0))));
    expect(first.every((d) => d.ok)).toBe(true);
    const again = await Promise.all(numbers.map((c) => store.consume([c], sec(5))));
    expect(again.every((d) => !d.ok)).toBe(true);
  });
}
