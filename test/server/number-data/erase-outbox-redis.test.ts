// Erasing a number on Redis takes its outbox entries out of the due set of every channel they wait
// in: the webhook's ("due") and the people's channels' ("due:email", "due:telegram"). Before, only
// the webhook's was cleaned, and an erased entry's id stayed due on the other two.
import { expect, it } from 'vitest';
import { createRedisWebhookOutbox } from '../../../server/src/webhooks/redis-outbox.ts';
import { redisForTests } from '../../support/redis-test-connection.ts';
import { leadEventFor, T0 } from '../../support/store-scenarios.ts';

const redis = redisForTests();

it("erasing a number takes its entries out of every channel's due set", async () => {
  const connection = redis.fresh();
  const outbox = createRedisWebhookOutbox({ connection, retentionDays: 30 });
  const hook = await leadEventFor('cb-1', T0);
  const mail = { ...hook, id: 'ntf-mail', channel: 'email' as const, type: 'missed' };
  const chat = { ...hook, id: 'ntf-chat', channel: 'telegram' as const, type: 'missed' };
  for (const entry of [hook, mail, chat]) expect(await outbox.enqueue(entry, T0)).toBe(true);
  const space = connection.keyspace('outbox');
  const dueSets = () => connection.run('test.due', async (c) => Promise.all(['due', 'due:email', 'due:telegram'].map((set) => c.zRange(space + set, 0, -1))));
  expect(await dueSets()).toEqual([[hook.id], ['ntf-mail'], ['ntf-chat']]);

  // The outbox erases its own records of a number (number-data/redis-number-records.ts asks it to).
  expect(await outbox.eraseNumber(hook.numberHash)).toBe(3);
  expect(await dueSets()).toEqual([[], [], []]);
});
