// Two relays sharing one Redis (a real redis-server): the owner's never-call list set on one is
// obeyed by the other, the lead report counts what either took, and a number's data shown and
// erased on one is gone from Redis: every key and value of the relays' prefix, read back with SCAN,
// holds none of its digits (the never-call list keeps its keyed hash only). Both on one redis-server
// and on a real 3-primary Redis Cluster, where the stores' key groups hash to slots on different
// nodes; the relay that did not erase forgets what it held in memory of the number too (a notice in
// Redis): finding a number's records scans each group on the node that serves it, and erasing them
// is one step per group (a MULTI across groups would be refused with CROSSSLOT).
import { afterEach, describe, expect, it } from 'vitest';
import type { Config } from '../../../server/src/config/index.ts';
import { createLogger } from '../../../server/src/log/index.ts';
import type { NumberData } from '../../../server/src/number-data/number-data.ts';
import type { LeadReport } from '../../../server/src/report/lead-report.ts';
import { until } from '../../support/held-calls.ts';
import { ORIGIN, postCallback } from '../../support/post-callback.ts';
import { redisContents } from '../../support/redis-contents.ts';
import { redisRelaysPerTest } from '../../support/redis-relays.ts';
import { type RedisForTests, redisForTests } from '../../support/redis-test-connection.ts';
import { QUICK_CALLS, startSystem, type System } from '../../support/system.ts';

const oneRedis = redisForTests();
const redisCluster = redisForTests({ cluster: true });
let prefixes = 0;
const ERASED = '+380501234577';
const FORMS = ['+380501234577', '380501234577', '0501234577', '050 123 45 77', '501234577'];

let system: System | undefined;
const startRedisRelay = redisRelaysPerTest();
afterEach(async () => {
  await system?.close();
  system = undefined;
});

async function relayOnRedis(s: System, redis: RedisForTests, prefix: string): Promise<string> {
  const config: Config = { ...s.config, redis: { ...redis.target, prefix, commandTimeoutMs: 2_000, connectTimeoutMs: 3_000 } };
  const { relay, url } = await startRedisRelay(config, { log: createLogger({ level: 'warn', write: () => {} }) });
  // The one piece of the relays' background work this test needs: reading the other relay's erasure notices.
  relay.app.erasureNotices!.start();
  return url;
}

/** Every key of the relays' prefix with its value, as text: SCAN on every node. */
const everything = (redis: RedisForTests, prefix: string) => redisContents(redis.nodeUrls, prefix);
const holding = (lines: string[]) => lines.filter((line) => FORMS.some((form) => line.includes(form)));

describe.each([
  ['one Redis', oneRedis],
  ['a 3-primary Redis Cluster', redisCluster],
])('owner actions and a visitor’s data on two relays sharing %s', (_name, redis) => {
  it('never-call set on one relay holds on the other; the report counts both; erasure leaves no digit in Redis', async () => {
    const prefix = `owner${++prefixes}:`;
    const s = (system = await startSystem(
      { ALLOWED_ORIGINS: ORIGIN, HASH_SECRET: 'owner-redis-secret-0123456789', REQUIRE_CONSENT: 'true' },
      { simulator: { timing: QUICK_CALLS }, store: 'memory' },
    ));
    const a = await relayOnRedis(s, redis, prefix);
    const b = await relayOnRedis(s, redis, prefix);
    const at = new Date(Date.now() + 3_600_000).toISOString();
    const body = { consent: true, consentText: 'Call me.', attribution: { utmSource: 'google' }, scheduledFor: at };
    const booked = await postCallback(a, { phone: ERASED, ...body });
    expect(booked.json.status).toBe('scheduled');
    const other = await postCallback(b, { phone: '+380671112244', ...body, attribution: { utmSource: 'bing' } });
    expect(other.json.status).toBe('scheduled');

    const today = new Intl.DateTimeFormat('en-CA', { timeZone: s.config.service.timeZone }).format(new Date());
    const report = (await (await fetch(`${a}/owner/api/report?from=${today}&to=${today}`)).json()) as LeadReport;
    expect(report.groups.map((g) => [g.key, g.requested])).toEqual([
      ['bing', 1],
      ['google', 1],
    ]);

    // As the owner view sends it (demo mode): a change needs the browser's word that the relay's own page asked.
    const fromView = { 'sec-fetch-site': 'same-origin' };
    expect((await fetch(`${b}/owner/api/leads/${booked.json.requestId}/never-call`, { method: 'POST', headers: fromView })).status).toBe(200);
    const refused = await postCallback(a, { phone: '050 123 45 77', consent: true });
    expect(refused.status).toBe(400);
    expect(refused.json.error?.code).toBe('number_not_allowed');

    const shown = (await (await fetch(`${a}/owner/api/numbers/${encodeURIComponent(ERASED)}`)).json()) as NumberData;
    expect(shown.calls).toEqual([expect.objectContaining({ callbackId: booked.json.requestId, stage: 'scheduled', numberKept: true })]);
    expect(shown.consent).toHaveLength(1);
    expect(shown.neverCall.listed).toBe(true);
    expect(holding(await everything(redis, prefix)).length).toBeGreaterThan(0);

    const erased = await fetch(`${b}/owner/api/numbers/${encodeURIComponent(ERASED)}`, { method: 'DELETE', headers: fromView });
    expect(await erased.json()).toMatchObject({ erased: { calls: 1, consent: 1 }, otherRelaysTold: true, kept: { neverCall: true } });
    expect(holding(await everything(redis, prefix))).toEqual([]);
    // Relay a took the request and keeps a copy of its consent record in memory: the notice b left in
    // Redis has a forget it within a poll or two.
    const after = await until(async () => {
      const data = (await (await fetch(`${a}/owner/api/numbers/${encodeURIComponent(ERASED)}`)).json()) as NumberData;
      return data.consent.length === 0 && data;
    }, 'relay a to forget the consent record it holds in memory');
    expect(after).toMatchObject({ calls: [], consent: [], outbox: [], callBack: [], neverCall: { listed: true } });
    // The other visitor's booking is still there, and still pending.
    expect(((await (await fetch(`${b}/owner/api/numbers/%2B380671112244`)).json()) as NumberData).calls).toEqual([expect.objectContaining({ stage: 'scheduled' })]);
  });
});
