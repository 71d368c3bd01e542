// CallBackNumbers in Redis: one key per lead, expiring with its time, under the keyspace group
// "callback-numbers":
//   <space>n:<callbackId>   JSON { e164, numberHash, untilMs }
// Finding a number's entries (to show or erase them) scans the group's keys: a rare, owner-asked task.
import type { RedisConnection } from '../storage/redis/connection.ts';
import { scanGroup } from '../storage/redis/scan.ts';
import { CALL_BACK_DAYS, type CallBackNumbers } from './callback-numbers.ts';

interface Entry {
  e164: string;
  numberHash: string;
  untilMs: number;
}

export function createRedisCallBackNumbers(connection: RedisConnection): CallBackNumbers {
  const space = connection.keyspace('callback-numbers');
  const key = (id: string) => `${space}n:${id}`;
  async function entries(hash: string): Promise<Array<{ key: string; callbackId: string; entry: Entry }>> {
    return connection.run('callback-numbers.scan', async (c) => {
      const found: Array<{ key: string; callbackId: string; entry: Entry }> = [];
      // One group, one slot: in a Cluster it is scanned on the node that serves it.
      for await (const keys of scanGroup(c, connection.topology, space, { MATCH: `${space}n:*`, COUNT: 500 })) {
        for (const k of keys) {
          const value = await c.get(k);
          if (!value) continue;
          const entry = JSON.parse(value) as Entry;
          if (entry.numberHash === hash) found.push({ key: k, callbackId: k.slice(`${space}n:`.length), entry });
        }
      }
      return found;
    });
  }
  return {
    async keep(id, e164, numberHash, untilMs) {
      await connection.run('callback-numbers.keep', (c) => c.set(key(id), JSON.stringify({ e164, numberHash, untilMs }), { PX: CALL_BACK_DAYS * 86_400_000 }));
    },
    async get(id, now) {
      const value = await connection.run('callback-numbers.get', (c) => c.get(key(id)));
      if (!value) return null;
      const entry = JSON.parse(value) as Entry;
      return entry.untilMs > now ? entry.e164 : null;
    },
    async ofNumber(hash) {
      return (await entries(hash)).map((e) => ({ callbackId: e.callbackId, untilMs: e.entry.untilMs }));
    },
    async erase(hash) {
      const found = await entries(hash);
      if (found.length > 0) await connection.run('callback-numbers.erase', (c) => c.del(found.map((e) => e.key)));
      return found.length;
    },
  };
}
