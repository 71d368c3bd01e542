// REDIS_MIN_REPLICAS: after a write that guards a call (an Idempotency-Key taken, a job claimed, a
// cooldown) the relay sends WAIT <n> <ms> and goes on only when n replicas have it; fewer is a 503 and
// no call. One WAIT covers every earlier write of the connection, so the writes finished meanwhile
// share the next one (a group commit, one per hash tag). What WAIT counts, and why a paused replica
// makes one episode: storage/README.md.
import { ErrorReply } from 'redis';
import type { RedisDurability } from '../../config/redis-topology.ts';
import { type Client, sendTo, type Topology } from './client.ts';

/** Resolves once the replicas have the connection's writes so far; throws when too few do. */
export type ReplicaWait = (client: Client, key: string) => Promise<void>;

export function createReplicaWait(topology: Topology, durability: RedisDurability | undefined): ReplicaWait {
  if (!durability) return async () => {};
  const { minReplicas, replicaWaitMs } = durability;
  const waits = new Map<string, Promise<number>>();

  function sharedWait(client: Client, key: string): Promise<number> {
    const tag = /\{[^}]*\}/.exec(key)?.[0] ?? '';
    let next = waits.get(tag);
    if (!next) {
      next = new Promise<void>((resolve) => setImmediate(resolve)).then(() => {
        // Sent now: writes finishing from here on need the next WAIT.
        waits.delete(tag);
        return sendTo(client, topology, key, ['WAIT', String(minReplicas), String(replicaWaitMs)]).then(Number);
      });
      waits.set(tag, next);
    }
    return next;
  }

  return async (client, key) => {
    const acked = await sharedWait(client, key);
    if (acked < minReplicas) throw new ErrorReply(`NOTREPLICATED ${acked} of ${minReplicas} replicas acknowledged within ${replicaWaitMs} ms`);
  };
}
