// The keys of one key group that match a pattern, read with their values a batch at a time (SCAN,
// then one MULTI per batch: the keys of a group share one Cluster slot). For the tools that read a
// store whole (`npm run store -- move`), never a request.
import type { RedisConnection } from './connection.ts';
import { scanGroup } from './scan.ts';

const BATCH = 500;

/** Batches of the matching keys (`match` inside `space`). */
export async function* groupKeys(connection: RedisConnection, space: string, match: string): AsyncIterable<string[]> {
  for await (const keys of scanGroup(connection.client, connection.topology, space, { MATCH: match, COUNT: BATCH })) {
    if (keys.length > 0) yield keys;
  }
}

export async function countKeys(connection: RedisConnection, space: string, match: string): Promise<number> {
  let n = 0;
  for await (const keys of groupKeys(connection, space, match)) n += keys.length;
  return n;
}

/** Batches of [key, value] of the matching hash keys (`hash`) or string keys (`string`); a key gone meanwhile is left out. */
export async function* groupValues<K extends 'hash' | 'string'>(
  connection: RedisConnection,
  space: string,
  match: string,
  kind: K,
): AsyncIterable<Array<[string, K extends 'hash' ? Record<string, string> : string]>> {
  for await (const keys of groupKeys(connection, space, match)) {
    const values = (await connection.run('scan.read', (c) => {
      const multi = c.multi();
      for (const key of keys) {
        if (kind === 'hash') multi.hGetAll(key);
        else multi.get(key);
      }
      return multi.exec();
    })) as unknown as Array<Record<string, string> | string | null>;
    const found = keys.flatMap((key, i) => {
      const v = values[i];
      return v === null || v === undefined || (typeof v === 'object' && Object.keys(v).length === 0)
        ? []
        : [[key, v] as [string, K extends 'hash' ? Record<string, string> : string]];
    });
    if (found.length > 0) yield found;
  }
}
