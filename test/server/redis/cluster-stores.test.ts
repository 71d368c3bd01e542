// The Redis stores that have no contract suite of their own, on a real 3-primary Redis Cluster,
// one case for each step that touches several keys at once: a multi-key DEL, a MULTI over many
// keys, a Lua script with several KEYS. In a Cluster such a step works only while every key it
// names hashes to one slot (the group's hash tag, connection.keyspace); a key outside the tag
// would answer CROSSSLOT — and the shared state swallows errors (a relay then decides by its own
// memory), so only a test that reads the result back would notice.
import { describe, expect, it } from 'vitest';
import { createRedisCallBackNumbers } from '../../../server/src/owner/redis-callback-numbers.ts';
import { createRedisReportStore } from '../../../server/src/report/redis-report-store.ts';
import type { ReportGroupValues } from '../../../server/src/report/report-store.ts';
import { createRedisSharedState } from '../../../server/src/shared-state/redis-shared-state.ts';
import { TALLY_KEEP_MS } from '../../../server/src/webhooks/notify/lead-tally.ts';
import { createRedisLeadTally } from '../../../server/src/webhooks/notify/redis-lead-tally.ts';
import { redisForTests } from '../../support/redis-test-connection.ts';

const cluster = redisForTests({ cluster: true });

const HOUR = 3_600_000;
const google: ReportGroupValues = { source: 'google', medium: 'cpc', campaign: 'winter', department: '', page: '/prices' };
const bing: ReportGroupValues = { ...google, source: 'bing' };

describe('the stores without a contract suite, on a 3-primary Redis Cluster', { timeout: 30_000 }, () => {
  it('the key groups of these stores are served by more than one node (so a step across groups would fail)', async () => {
    const c = cluster.fresh();
    const nodeOf = async (group: string) => {
      const node = await (c.client as unknown as { getNodeClientForKey(key: string): Promise<{ options?: { url?: string; socket?: { port?: number } } }> }).getNodeClientForKey(
        c.keyspace(group),
      );
      return node.options?.socket?.port ?? node.options?.url;
    };
    const nodes = new Set(await Promise.all(['shared', 'report', 'notify', 'callback-numbers'].map(nodeOf)));
    expect(nodes.size).toBeGreaterThan(1);
  });

  it('shared state: a breaker opened for two windows is closed by one DEL of both keys, and opens again', async () => {
    const shared = createRedisSharedState({ connection: cluster.fresh(), relayId: 'relay-1' });
    expect(await shared.openBreaker('shop.example', 'hourly', HOUR)).toBe(true);
    expect(await shared.openBreaker('shop.example', 'hourly', HOUR)).toBe(false);
    expect(await shared.openBreaker('shop.example', 'daily', 24 * HOUR)).toBe(true);
    // Both keys in one DEL: null would be the store not answering (CROSSSLOT swallowed).
    expect(await shared.closeBreaker('shop.example')).toBe(true);
    expect(await shared.closeBreaker('shop.example')).toBe(false);
    expect(await shared.openBreaker('shop.example', 'hourly', HOUR)).toBe(true);
    expect(await shared.openBreaker('shop.example', 'daily', 24 * HOUR)).toBe(true);
  });

  it('shared state: the earliest mark (a script) and a polled value', async () => {
    const shared = createRedisSharedState({ connection: cluster.fresh(), relayId: 'relay-1' });
    expect(await shared.keepEarliest('calllog', 5_000, HOUR)).toBe(5_000);
    expect(await shared.keepEarliest('calllog', 3_000, HOUR)).toBe(3_000);
    expect(await shared.keepEarliest('calllog', 4_000, HOUR)).toBe(3_000);
    let fetched = 0;
    const poll = shared.poll<string>('sipstatus', HOUR);
    const fetch = async () => `value ${++fetched}`;
    expect((await poll.get(fetch))?.value).toBe('value 1');
    expect((await poll.get(fetch))?.value).toBe('value 1');
    expect(fetched).toBe(1);
  });

  it('report: leads read back by one MULTI over their keys, opens by one MULTI over the days', async () => {
    const report = createRedisReportStore({ connection: cluster.fresh() });
    const at = Date.UTC(2026, 10, 20, 12);
    for (let i = 0; i < 5; i++) await report.addLead({ callbackId: `cb-${i}`, at: at + i * 1_000, requestedAs: i % 2 ? 'scheduled' : 'now', ...(i < 3 ? google : bing) });
    await report.markPlaced('cb-0');
    await report.finish('cb-0', 'answered', { answerSeconds: 12, talkSeconds: 95 });
    await report.finish('cb-3', 'missed', null);
    const leads = await report.leads(at, at + 10_000);
    expect(leads.map((l) => [l.callbackId, l.source, l.outcome])).toEqual([
      ['cb-0', 'google', 'answered'],
      ['cb-1', 'google', null],
      ['cb-2', 'google', null],
      ['cb-3', 'bing', 'missed'],
      ['cb-4', 'bing', null],
    ]);
    expect(leads[0]).toMatchObject({ placed: true, answerSeconds: 12, talkSeconds: 95 });
    await report.countOpen('2026-11-20', google, 'add');
    await report.countOpen('2026-11-20', google, 'add');
    await report.countOpen('2026-11-21', bing, 'add');
    const opens = await report.opens('2026-11-19', '2026-11-21');
    expect(opens.map((o) => [o.day, o.source, o.count]).sort()).toEqual([
      ['2026-11-20', 'google', 2],
      ['2026-11-21', 'bing', 1],
    ]);
  });

  it('lead tally: a script over the index and the leads, which forgets those past the week', async () => {
    const tally = createRedisLeadTally({ connection: cluster.fresh() });
    const now = Date.UTC(2026, 10, 25, 12);
    const old = now - TALLY_KEEP_MS - HOUR;
    await tally.record({ callbackId: 'old-1', createdAt: old, utmSource: 'google', outcome: 'answered' }, old);
    await tally.record({ callbackId: 'new-1', createdAt: now - 2 * HOUR, utmSource: 'google', outcome: 'answered' }, now);
    await tally.record({ callbackId: 'new-2', createdAt: now - HOUR, utmSource: 'google', outcome: 'missed' }, now);
    await tally.record({ callbackId: 'new-2', createdAt: now - HOUR, utmSource: 'google', outcome: 'answered' }, now);
    const rows = await tally.count(old - HOUR, now);
    expect(rows).toEqual([{ source: 'google', outcome: 'answered', count: 2 }]);
  });

  it('callback numbers: a number’s entries found by SCAN on their node and erased by one DEL of all', async () => {
    const numbers = createRedisCallBackNumbers(cluster.fresh());
    const until = Date.now() + HOUR;
    await numbers.keep('cb-1', '+380501234567', 'hash-a', until);
    await numbers.keep('cb-2', '+380501234567', 'hash-a', until);
    await numbers.keep('cb-3', '+380671112233', 'hash-b', until);
    expect((await numbers.ofNumber('hash-a')).map((e) => e.callbackId).sort()).toEqual(['cb-1', 'cb-2']);
    expect(await numbers.erase('hash-a')).toBe(2);
    expect(await numbers.get('cb-1', Date.now())).toBeNull();
    expect(await numbers.get('cb-2', Date.now())).toBeNull();
    expect(await numbers.get('cb-3', Date.now())).toBe('+380671112233');
    expect(await numbers.ofNumber('hash-a')).toEqual([]);
  });
});
