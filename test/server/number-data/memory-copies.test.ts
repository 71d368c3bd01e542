// Each copy a relay holds of numbers in memory forgets one number on erasure, and nothing else: the
// parsed numbers (keyed by the number as typed), the limit keys (remembered by its digits), the calls
// it placed, the owner view's call log of past days.
import { describe, expect, it } from 'vitest';
import type { CallsListQuery } from '../../../server/src/calltracking/calls-list.ts';
import { createMemoryCopies } from '../../../server/src/lib/memory-copies.ts';
import { RecentCache } from '../../../server/src/lib/recent-cache.ts';
import { createLimitKeys } from '../../../server/src/limits/keys.ts';
import { createLogger } from '../../../server/src/log/index.ts';
import { createAcceptedCalls } from '../../../server/src/callback/progress/accepted-calls.ts';
import { createOwnerCalls } from '../../../server/src/owner/owner-calls.ts';
import { createDestinationCache } from '../../../server/src/phone/destination-cache.ts';

const ERASED = '+380501234599';
const erased = { e164: ERASED, hash: 'h', callbackIds: new Set(['cb-erased']) };

describe('copies in memory forget an erased number', () => {
  it('a recent cache deletes what a test picks, in both generations', () => {
    const cache = new RecentCache<string, number>(4);
    for (const [i, key] of ['a', 'b', 'c', 'd'].entries()) cache.set(key, i);
    expect(cache.deleteWhere((key, value) => key === 'a' || value === 3)).toBe(2);
    expect([cache.get('a'), cache.get('b'), cache.get('c'), cache.get('d')]).toEqual([undefined, 1, 2, undefined]);
    expect(cache.delete('b')).toBe(true);
    expect(cache.delete('b')).toBe(false);
  });

  it('parsed numbers: every input typed as the number, and no other', () => {
    const destinationOf = createDestinationCache({ defaultCountry: 'UA', allowedCountries: ['UA'] });
    for (const typed of ['050 123 45 99', '+380501234599', '(050) 123-45-99', '050 111 22 33']) destinationOf(typed, undefined);
    expect(destinationOf.forgetNumber(ERASED)).toBe(3);
    expect(destinationOf.forgetNumber(ERASED)).toBe(0);
  });

  it('limit keys: the hashes remembered by the number’s digits', () => {
    const keys = createLimitKeys('a-test-hash-secret-0123456789');
    const hash = keys.one('number', '380501234599');
    keys.one('number', '380501112233');
    expect(keys.forget('number', '380501234599')).toBe(true);
    expect(keys.forget('number', '380501234599')).toBe(false);
    expect(keys.one('number', '380501234599')).toBe(hash);
  });

  it('placed calls: the number’s requests and any other call to it', () => {
    const accepted = createAcceptedCalls();
    const call = (callbackId: string, digits: string) => accepted.add({ callbackId, digits, acceptedAt: new Date(), origin: 'https://shop.example' });
    call('cb-erased', '380501234599');
    call('cb-owner', '0501234599');
    call('cb-other', '380671112233');
    expect(accepted.forgetNumber(erased)).toBe(2);
    expect(accepted.hasNumber('380501234599')).toBe(false);
    expect(accepted.get('cb-other')).toBeDefined();
    expect(accepted.size).toBe(1);
  });

  it('the owner view’s call log: the number’s rows of the days it keeps, and its last answer', async () => {
    let asked = 0;
    const row = (dst: string, query: CallsListQuery<never>) => ({
      calldate: new Date(query.from.getTime() + 3600_000),
      caller: '380441112233',
      dst,
      disposition: 'ANSWERED',
      billsec: 10,
      duration: 20,
      call_type: 'out',
      utm_source: 'google',
      utm_medium: '',
      client_id: '',
      uniqueid: String(++asked),
    });
    const client = { callsList: async (query: CallsListQuery<never>) => [row('380501234599', query), row('380671112233', query)] as never[] };
    const now = new Date('2026-03-10T12:00:00Z');
    const calls = createOwnerCalls({ client, accepted: createAcceptedCalls(), timeZone: 'Europe/Kyiv', log: createLogger({ level: 'silent' }), now: () => now, refreshMs: 60_000 });
    expect((await calls.get()).days.map((d) => d.total)).toEqual([2, 2, 2, 2, 2, 2, 2]);
    // Six days that are over are kept; today is asked again.
    expect(calls.forgetNumber(erased)).toBe(6);
    // A kept day is its counts (no number: they stay) and its latest calls, which lose the number's.
    expect((await calls.get()).days.map((d) => d.total)).toEqual([2, 2, 2, 2, 2, 2, 2]);
  });

  it('a registry asks every copy and says how many entries each dropped', () => {
    const copies = createMemoryCopies();
    copies.hold('one', () => 2);
    copies.hold('two', (n) => n.callbackIds.size);
    copies.hold('one', () => 1);
    expect(copies.forget(erased)).toEqual({ one: 3, two: 1 });
  });
});
