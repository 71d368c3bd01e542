// SCAN over the keys of one key group (connection.keyspace(group)), for the rare tasks that look
// for a number's records without an index. Every key of a group carries the group's hash tag, so
// in a Cluster they all live in one slot and so on one node; SCAN walks one node's keys, and the
// cluster client has none of its own: it is sent to the node that serves the group's slot. On one
// Redis (or Sentinel's primary) it is the connection's own SCAN.
import type { Client, Topology } from './client.ts';

type ScanOptions = Parameters<Client['scanIterator']>[0];

/** The part of the cluster client this needs (client.ts types every topology as the one-address client). */
interface ClusterNodes {
  getNodeClientForKey(key: string, isReadonly?: boolean): Promise<Client>;
}

/** Batches of the keys of the group `space` (`<prefix>{<prefix><group>}:`) that match `options.MATCH`. */
export async function* scanGroup(client: Client, topology: Topology, space: string, options: ScanOptions & { MATCH: string }): AsyncGenerator<string[]> {
  // A pattern outside the group would silently miss the keys of other slots in a Cluster.
  if (!options.MATCH.startsWith(space)) throw new Error(`scanGroup: the pattern ${options.MATCH} is not inside the key group ${space}`);
  const node = topology === 'cluster' ? await (client as unknown as ClusterNodes).getNodeClientForKey(space) : client;
  // In a Cluster the write check keeps a key in every group's slot (check-key.ts): never a record.
  const check = `${space}health`;
  for await (const keys of node.scanIterator(options)) yield (keys as string[]).filter((key) => key !== check);
}

/** The hashes of the group `space` whose keys match `match` (inside the group) and whose `field` is `value`, with all their fields. */
export async function hashesWhere(
  client: Client,
  topology: Topology,
  space: string,
  match: string,
  field: string,
  value: string,
): Promise<Array<{ key: string; fields: Record<string, string> }>> {
  const found: Array<{ key: string; fields: Record<string, string> }> = [];
  for await (const keys of scanGroup(client, topology, space, { MATCH: `${space}${match}`, COUNT: 500, TYPE: 'hash' })) {
    for (const key of keys) {
      if ((await client.hGet(key, field)) !== value) continue;
      found.push({ key, fields: (await client.hGetAll(key)) as Record<string, string> });
    }
  }
  return found;
}
