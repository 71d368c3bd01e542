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
  for await (const keys of node.scanIterator(options)) yield keys as string[];
}
