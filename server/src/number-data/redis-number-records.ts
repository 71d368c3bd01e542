// NumberRecords in Redis: no index leads from a number to its records, so finding them scans each
// group's keys and compares the keyed hash (a rare task, bounded by DATA_RETENTION_DAYS). Each group
// is scanned on its own node and erased by a transaction of its own, since one MULTI across groups is
// refused in a Cluster. Why that is safe: number-data/README.md.
import type { ConsentRecord } from '../consent/consent-log.ts';
import { toJob } from '../lifecycle/redis-job-store.ts';
import type { RedisConnection } from '../storage/redis/connection.ts';
import { scanGroup } from '../storage/redis/scan.ts';
import { toEntry } from '../webhooks/redis-outbox.ts';
import type { NumberRecords } from './number-records.ts';

type Client = RedisConnection['client'];
type Topology = RedisConnection['topology'];

async function scanHashes(
  c: Client,
  topology: Topology,
  space: string,
  match: string,
  hashField: string,
  hash: string,
): Promise<Array<{ key: string; fields: Record<string, string> }>> {
  const found: Array<{ key: string; fields: Record<string, string> }> = [];
  for await (const keys of scanGroup(c, topology, space, { MATCH: `${space}${match}`, COUNT: 500, TYPE: 'hash' })) {
    for (const key of keys) {
      if ((await c.hGet(key, hashField)) !== hash) continue;
      found.push({ key, fields: (await c.hGetAll(key)) as Record<string, string> });
    }
  }
  return found;
}

async function scanConsent(c: Client, topology: Topology, space: string, hash: string): Promise<Array<{ key: string; record: ConsentRecord }>> {
  const found: Array<{ key: string; record: ConsentRecord }> = [];
  for await (const keys of scanGroup(c, topology, space, { MATCH: `${space}*`, COUNT: 500, TYPE: 'string' })) {
    for (const key of keys) {
      const value = await c.get(key);
      const record = value ? (JSON.parse(value) as ConsentRecord) : null;
      if (record?.numberHmac === hash) found.push({ key, record });
    }
  }
  return found;
}

export function createRedisNumberRecords(connection: RedisConnection): NumberRecords {
  const jobs = connection.keyspace('jobs');
  const consent = connection.keyspace('consent');
  const outbox = connection.keyspace('outbox');
  const shared = connection.keyspace('shared');
  const { topology } = connection;
  const all = (c: Client, hash: string) =>
    Promise.all([scanHashes(c, topology, jobs, 'job:*', 'numberHash', hash), scanConsent(c, topology, consent, hash), scanHashes(c, topology, outbox, 'ev:*', 'numberHash', hash)]);
  return {
    async find(hash) {
      const [j, k, o] = await connection.run('number-data.find', (c) => all(c, hash));
      return {
        jobs: j.map((h) => toJob(h.fields)).sort((a, b) => a.createdAt - b.createdAt),
        consent: k.map((r) => r.record),
        outbox: o.map((h) => toEntry(h.fields)).sort((a, b) => a.createdAt - b.createdAt),
      };
    },
    async erase(hash) {
      return connection.run('number-data.erase', async (c) => {
        const [j, k, o] = await all(c, hash);
        if (j.length > 0) {
          const multi = c.multi();
          for (const { key, fields } of j) {
            multi.del(key);
            for (const index of ['ready', 'pending', 'failed']) multi.zRem(`${jobs}${index}`, fields.id!);
          }
          // The pending booking's slot of the number (numberHash → id).
          multi.hDel(`${jobs}numbers`, hash);
          await multi.exec();
        }
        if (k.length > 0) await c.del(k.map(({ key }) => key));
        if (o.length > 0) {
          const multi = c.multi();
          for (const { key, fields } of o) {
            multi.del(key);
            // Each entry waits in its channel's due set, which it names (the webhook's is "due").
            multi.zRem(`${outbox}${fields.dueset || 'due'}`, fields.id!);
          }
          await multi.exec();
        }
        await c.del(`${shared}poll:calllog`);
        return { jobs: j.length, consent: k.length, outbox: o.length };
      });
    },
    // Redis keeps no older copies of a deleted key's value that a client can read.
    scrub: async () => {},
  };
}
