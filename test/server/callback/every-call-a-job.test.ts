// Every callback the relay admits is one job, on every store (memory, SQLite, Redis), so the report,
// the lead webhook and the notifications hear of it only as the lifecycle's listeners: a call now the
// service took (followed, or ended at once when nothing would come of following), one it refused, and
// a booking. Here with no lead webhook, no notifier and REDIAL_ATTEMPTS=0, where a call placed now
// once left no job: a listener still hears it placed, and its job holds no number and never rings again.
import { afterEach, describe, expect, it } from 'vitest';
import { loadConfig } from '../../../server/src/config/index.ts';
import { createLogger } from '../../../server/src/log/index.ts';
import type { LifecycleEvent } from '../../../server/src/callback/lifecycle.ts';
import { isPlacement } from '../../../server/src/callback/stages.ts';
import type { Relay } from '../../../server/src/relay.ts';
import { startSimulator } from '../../../server/simulator/index.ts';
import { HELD_ENV } from '../../support/held-calls.ts';
import { postCallback } from '../../support/post-callback.ts';
import { onRedis, redisRelaysPerTest } from '../../support/redis-relays.ts';
import { redisForTests } from '../../support/redis-test-connection.ts';
import { QUICK_CALLS, startSystem } from '../../support/system.ts';

const redis = redisForTests();
const startRedisRelay = redisRelaysPerTest();
const ENV = { ...HELD_ENV, REDIAL_ATTEMPTS: '0' };
const REFUSED = '+380507770001';
const closing: Array<() => Promise<void>> = [];
afterEach(async () => {
  for (const close of closing.splice(0)) await close();
});

/** A relay on `store` and its simulator (which refuses numbers starting 38050777). */
async function relayOn(store: 'memory' | 'embedded' | 'redis'): Promise<{ url: string; relay: Relay; calls: () => number }> {
  const simulator = { timing: QUICK_CALLS, outboundBanPrefixes: ['38050777'] };
  if (store !== 'redis') {
    const s = await startSystem(ENV, { store, simulator });
    closing.push(() => s.close());
    return { url: s.relayUrl, relay: s.relay, calls: () => s.sim.calls.length };
  }
  const sim = await startSimulator({ ...simulator, port: 0, host: '127.0.0.1' });
  closing.push(() => sim.close());
  const config = loadConfig({ PORT: '0', STATUS_CACHE_MS: '0', ...ENV }, { baseUrl: sim.url, authKey: sim.authKey, projectId: sim.projectId, caller: sim.officeLine });
  const r = await startRedisRelay(onRedis(config, redis, `every-job-${Date.now()}:`), { log: createLogger({ level: 'silent' }) });
  return { url: r.url, relay: r.relay, calls: () => sim.calls.length };
}

describe.each(['memory', 'embedded', 'redis'] as const)('every admitted callback is one job (%s store)', (store) => {
  it('a call now taken or refused, and a booking: one job each, told to the listeners, none placed again', async () => {
    const { url, relay, calls } = await relayOn(store);
    const heard: LifecycleEvent[] = [];
    relay.app.lifecycle.on((event) => void heard.push(event));
    const since = Date.now();

    const now = await postCallback({ relayUrl: url }, { phone: '+380501110001' });
    expect(now.json.status).toBe('accepted');
    expect((await postCallback({ relayUrl: url }, { phone: REFUSED })).status).toBe(502);
    const booked = await postCallback({ relayUrl: url }, { phone: '+380501110003', scheduledFor: new Date(Date.now() + 3_600_000).toISOString() });
    expect(booked.json.status).toBe('scheduled');
    // Refused before anything was admitted: no lead, no job.
    expect((await postCallback({ relayUrl: url }, { phone: 'not a number' })).status).toBe(400);

    // Each lead the report knows of is one job, and the report knows of the three admitted.
    const leads = await relay.app.stores.report.leads(since - 1000, Date.now() + 1000);
    const jobs = await Promise.all(leads.map(async (lead) => (await relay.app.stores.jobs.get(lead.callbackId))!));
    expect(jobs.map((j) => [j.requestedAs, j.stage, j.request.e164 === null]).sort()).toEqual([
      ['now', 'ended', true],
      ['now', 'failed', true],
      ['scheduled', 'scheduled', false],
    ]);
    expect(jobs.find((j) => j.stage === 'ended')!.callbackId).toBe(now.json.requestId);
    // A listener heard the call placed now placed (the report's "placed"), then over; the refused one failed.
    const steps = heard.map((e) => [e.callbackId, e.from, e.to]);
    expect(steps.filter(([id]) => id === now.json.requestId)).toEqual([
      [now.json.requestId, null, 'following'],
      [now.json.requestId, 'following', 'ended'],
    ]);
    expect(heard.some((e) => e.callbackId === now.json.requestId && isPlacement(e.to))).toBe(true);
    expect(steps).toContainEqual([jobs.find((j) => j.stage === 'failed')!.callbackId, null, 'failed']);
    expect(leads.map((l) => [l.placed, l.outcome]).sort()).toEqual([
      [false, null],
      [false, 'failed'],
      [true, 'ended'],
    ]);

    // The job runner places neither call now again: the service already took (or refused) it.
    expect(await relay.runner.runOnce()).toBe(0);
    expect(calls()).toBe(1);
  });
});
