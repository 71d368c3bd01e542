// The same outbox cases against the memory, the SQLite and the Redis outbox: one entry per event id, due
// entries leased to one deliverer at a time, a dead deliverer's entry due again after its lease,
// and only the lease holder settles an attempt.
import { describe, expect, it } from 'vitest';
import { createMemoryWebhookOutbox } from '../../../server/src/webhooks/memory-outbox.ts';
import type { WebhookOutbox } from '../../../server/src/webhooks/outbox.ts';
import { openDatabase } from '../../../server/src/storage/sqlite/database.ts';
import { createSqliteWebhookOutbox } from '../../../server/src/webhooks/sqlite-outbox.ts';
import { createRedisWebhookOutbox } from '../../../server/src/webhooks/redis-outbox.ts';
import { redisForTests } from '../../support/redis-test-connection.ts';
import { leadEventFor, T0 } from '../../support/store-scenarios.ts';
import { tempDataDir } from '../../support/crash.ts';

const LEASE = 40_000;
const redis = redisForTests();
// The same cases on a real 3-primary Redis Cluster (REDIS_CLUSTER=true): every script in one slot.
const redisCluster = redisForTests({ cluster: true });
const factories: [string, () => WebhookOutbox][] = [
  ['memory', () => createMemoryWebhookOutbox()],
  ['sqlite', () => createSqliteWebhookOutbox({ db: openDatabase({ dataDir: tempDataDir() }) })],
  ['redis', () => createRedisWebhookOutbox({ connection: redis.fresh(), retentionDays: 30 })],
  ['redis-cluster', () => createRedisWebhookOutbox({ connection: redisCluster.fresh(), retentionDays: 30 })],
];

describe.each(factories)('webhook outbox contract: %s', (_name, make) => {
  it('keeps one entry per event id, due at once, with its body as built', async () => {
    const outbox = make();
    const event = await leadEventFor('cb-1', T0);
    expect(await outbox.nextDueAt()).toBeNull();
    expect(await outbox.enqueue(event, T0)).toBe(true);
    expect(await outbox.enqueue(event, T0 + 5)).toBe(false);
    expect(await outbox.get(event.id)).toEqual({
      eventId: event.id,
      type: 'callback.placed',
      channel: 'webhook',
      callbackId: 'cb-1',
      maskedNumber: event.maskedNumber,
      body: event.body,
      state: 'pending',
      attempts: 0,
      createdAt: T0,
      nextAttemptAt: T0,
      lastError: null,
      finishedAt: null,
    });
    expect(await outbox.nextDueAt()).toBe(T0);
  });

  it('leases a due entry to one deliverer; after its lease expires another takes it, and only the holder settles', async () => {
    const outbox = make();
    const event = await leadEventFor('cb-1', T0);
    await outbox.enqueue(event, T0);
    expect((await outbox.claimDue('a', T0, LEASE, 10)).map((e) => [e.eventId, e.attempts])).toEqual([[event.id, 1]]);
    expect(await outbox.claimDue('b', T0 + 1, LEASE, 10)).toEqual([]);
    expect(await outbox.nextDueAt()).toBe(T0 + LEASE);
    expect((await outbox.claimDue('b', T0 + LEASE, LEASE, 10)).map((e) => e.attempts)).toEqual([2]);
    expect(await outbox.delivered(event.id, 'a', T0 + LEASE + 1)).toBe(false);
    expect(await outbox.delivered(event.id, 'b', T0 + LEASE + 1)).toBe(true);
    expect(await outbox.get(event.id)).toMatchObject({ state: 'delivered', finishedAt: T0 + LEASE + 1 });
    expect(await outbox.nextDueAt()).toBeNull();
    expect(await outbox.claimDue('c', T0 + 10 * LEASE, LEASE, 10)).toEqual([]);
  });

  it('retries at the given time and gives up for good, oldest due first', async () => {
    const outbox = make();
    const first = await leadEventFor('cb-1', T0);
    const second = await leadEventFor('cb-2', T0);
    await outbox.enqueue(first, T0);
    await outbox.enqueue(second, T0 + 1);
    await outbox.claimDue('a', T0 + 1, LEASE, 10);
    expect(await outbox.retry(first.id, 'a', T0 + 5000, 'HTTP 500', T0 + 2)).toBe(true);
    expect(await outbox.giveUp(second.id, 'a', 'HTTP 410', T0 + 2)).toBe(true);
    expect(await outbox.get(first.id)).toMatchObject({ state: 'pending', nextAttemptAt: T0 + 5000, lastError: 'HTTP 500' });
    expect(await outbox.get(second.id)).toMatchObject({ state: 'gave_up', lastError: 'HTTP 410', finishedAt: T0 + 2 });
    expect(await outbox.nextDueAt()).toBe(T0 + 5000);
    expect(await outbox.claimDue('a', T0 + 4999, LEASE, 10)).toEqual([]);
    expect((await outbox.claimDue('a', T0 + 5000, LEASE, 10)).map((e) => e.eventId)).toEqual([first.id]);
    expect(await outbox.retry(second.id, 'a', T0, 'x', T0 + 5000)).toBe(false);
  });

  it('claims each channel on its own: a backlog on one never holds another back', async () => {
    const outbox = make();
    const hook = await leadEventFor('cb-1', T0);
    const mail = { ...hook, id: 'ntf-mail', channel: 'email' as const, type: 'missed' };
    const chat = { ...hook, id: 'ntf-chat', channel: 'telegram' as const, type: 'missed' };
    for (const m of [hook, mail, chat]) await outbox.enqueue(m, T0);
    expect(await outbox.pendingCount('telegram')).toBe(1);
    // Telegram's entry is leased and failing; email's and the webhook's are claimed regardless.
    expect((await outbox.claimDue('a', T0, LEASE, 10, 'telegram')).map((e) => [e.eventId, e.channel])).toEqual([['ntf-chat', 'telegram']]);
    expect(await outbox.retry('ntf-chat', 'a', T0 + 60_000, 'HTTP 500', T0)).toBe(true);
    expect(await outbox.nextDueAt('telegram')).toBe(T0 + 60_000);
    expect(await outbox.nextDueAt('email')).toBe(T0);
    expect((await outbox.claimDue('a', T0, LEASE, 10, 'email')).map((e) => [e.eventId, e.type, e.channel])).toEqual([['ntf-mail', 'missed', 'email']]);
    expect((await outbox.claimDue('a', T0, LEASE, 10)).map((e) => e.eventId)).toEqual([hook.id]);
    expect(await outbox.delivered('ntf-mail', 'a', T0 + 1)).toBe(true);
    expect(await outbox.pendingCount('email')).toBe(0);
    expect(await outbox.pendingCount('telegram')).toBe(1);
    expect(await outbox.pendingCount('webhook')).toBe(1);
  });
});
