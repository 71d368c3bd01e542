// Notifications with two relays sharing one Redis (a real redis-server): each message goes to the
// outbox once whichever relay tells it, and both relays delivering at once send it once; the daily
// digest is claimed by one relay for the day, however many reach its time together; a relay that
// died holding an attempt leaves it to the other once its lease has run out.
import { describe, expect, it } from 'vitest';
import { loadConfig } from '../../../server/src/config/index.ts';
import { createLogger } from '../../../server/src/log/index.ts';
import { openRedisStores } from '../../../server/src/app/redis-stores.ts';
import { createRelay, type Relay } from '../../../server/src/relay.ts';
import type { RedisConnection } from '../../../server/src/storage/redis/connection.ts';
import { noticeId } from '../../../server/src/webhooks/notify/notifier.ts';
import { heldJobFor, HELD_ENV, testClock, until } from '../../support/held-calls.ts';
import { NO_SERVICE_ENV, notifyEnv, startFakeTelegram, startSmtp } from '../../support/notify-receivers.ts';
import { redisForTests } from '../../support/redis-test-connection.ts';

const redis = redisForTests();
// Monday 2026-11-23 10:00 in Kyiv.
const T0 = Date.parse('2026-11-23T08:00:00Z');
const MONDAY_1800 = Date.parse('2026-11-23T16:00:00Z');
const LEASE_MS = 40_000;
const noTimers = { setTimeout: () => null, clearTimeout: () => {} };

async function twoRelays() {
  const smtp = await startSmtp();
  const telegram = await startFakeTelegram();
  const clock = testClock(new Date(T0));
  const connection: RedisConnection = redis.fresh();
  const config = loadConfig({
    ...HELD_ENV,
    ...notifyEnv(smtp, telegram),
    NOTIFY_DIGEST_AT: '18:00',
    PORT: '0',
    REDIS_URL: redis.server.url,
    ...NO_SERVICE_ENV,
  });
  const log = createLogger({ level: 'silent' });
  const relays: Relay[] = ['a', 'b'].map((name) =>
    createRelay({
      config,
      log,
      stores: openRedisStores(config, log, { connection, relayId: name, now: () => clock.ms }),
      now: clock.now,
      timers: noTimers,
      runner: { timers: noTimers },
    }),
  );
  const deliverBoth = async () => {
    for (const channel of ['email', 'telegram'] as const) await Promise.all(relays.map((r) => r.app.notifier!.deliveries.get(channel)!.runOnce()));
  };
  const close = async () => {
    for (const r of relays) await r.app.notifier!.stop();
    await smtp.close();
    await telegram.close();
  };
  return { smtp, telegram, clock, connection, relays, deliverBoth, close };
}

describe('notifications on Redis, two relays', () => {
  it('a booking told by both relays (a step told again) and delivered by both at once arrives once per channel; the digest once per day', async () => {
    const r = await twoRelays();
    try {
      const [a, b] = r.relays as [Relay, Relay];
      const job = heldJobFor('+380501234567', 'scheduled', T0 + 3_600_000);
      job.request.attribution = { utmSource: 'facebook' };
      expect((await a.app.lifecycle.start(job)).ok).toBe(true);
      // Relay b tells the same step again (as a relay taking over a job would): kept once.
      await b.app.notifier!.tell({
        kind: 'scheduled',
        callbackId: job.callbackId,
        at: T0,
        e164: job.request.e164,
        maskedNumber: job.maskedNumber,
        numberHash: job.numberHash,
        department: null,
        attribution: job.request.attribution,
        pageUrl: null,
        scheduledFor: job.dueAt,
        reason: null,
      });
      await r.deliverBoth();
      await r.deliverBoth();
      await until(() => r.smtp.mails.length === 1 && r.telegram.delivered.length === 1, 'one of each');
      expect(r.smtp.mails[0]!.parsed.subject).toBe('Call booked: +380501234567');
      expect(r.telegram.requests).toHaveLength(1);

      // 18:00: both relays reach the digest's time together; one claims the day.
      r.clock.set(MONDAY_1800);
      const days = await Promise.all([a.app.notifier!.digest!.runOnce(), b.app.notifier!.digest!.runOnce()]);
      expect(days.filter((d) => d === '2026-11-23')).toHaveLength(1);
      await r.deliverBoth();
      await until(() => r.smtp.mails.length === 2 && r.telegram.delivered.length === 2, 'the digest');
      const digest = r.smtp.mails[1]!.parsed;
      expect(digest.subject).toBe('Leads of 23 November 2026');
      expect(digest.text).toContain('facebook      1         0       0       0        1      0');
      // Later: still once.
      r.clock.set(MONDAY_1800 + 3_600_000);
      expect(await Promise.all(r.relays.map((x) => x.app.notifier!.digest!.runOnce()))).toEqual([null, null]);
      await r.deliverBoth();
      expect(r.smtp.mails).toHaveLength(2);
      expect(r.telegram.requests).toHaveLength(2);
      // The keys are under the deployment's prefix, in the outbox's and the notify group's slots;
      // a channel's due set is gone once all it held was delivered.
      const keys = await r.connection.client.keys(`${r.connection.prefix}*`);
      expect(keys).toContain(`${r.connection.prefix}{${r.connection.prefix}notify}:leads`);
      expect(keys).not.toContain(`${r.connection.prefix}{${r.connection.prefix}outbox}:due:email`);
    } finally {
      await r.close();
    }
  });

  it('a relay that died mid-attempt leaves its message to the other once the lease has run out', async () => {
    const r = await twoRelays();
    try {
      const [a, b] = r.relays as [Relay, Relay];
      const job = heldJobFor('+380501234568', 'queued', T0);
      expect((await a.app.lifecycle.start(job)).ok).toBe(true);
      // Relay a's attempt started (its lease taken) and it died: no answer ever came.
      const claimed = await a.app.stores.outbox.claimDue('a', T0, LEASE_MS, 10, 'telegram');
      expect(claimed.map((e) => e.eventId)).toEqual([noticeId(job.callbackId, 'queued', 'telegram')]);
      r.clock.set(T0 + LEASE_MS - 1);
      expect(await b.app.notifier!.deliveries.get('telegram')!.runOnce()).toBe(0);
      r.clock.set(T0 + LEASE_MS);
      expect(await b.app.notifier!.deliveries.get('telegram')!.runOnce()).toBe(1);
      expect(await b.app.notifier!.deliveries.get('email')!.runOnce()).toBe(1);
      await until(() => r.smtp.mails.length === 1 && r.telegram.delivered.length === 1, 'one of each');
      expect(r.telegram.delivered[0]!.body.text).toContain('<b>Lead held: +380501234568</b>');
      expect(await b.app.stores.outbox.get(claimed[0]!.eventId)).toMatchObject({ state: 'delivered', attempts: 2, body: null });
    } finally {
      await r.close();
    }
  });
});
