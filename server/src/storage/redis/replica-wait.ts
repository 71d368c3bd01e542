// REDIS_MIN_REPLICAS: Redis replicates asynchronously, so a write the primary acknowledged can
// vanish when a replica is promoted — and with it the guard a call relies on (an Idempotency-Key
// taken, a job claimed, a call's step recorded, a number's cooldown). After such a write the relay
// sends WAIT <n> <ms> and goes on only when n replicas have it; fewer is an error reply of our own
// (NOTREPLICATED: health.ts names it, the request is answered 503 and no call is placed).
//
// WAIT blocks the connection it is sent on until the replicas answer (a round trip to them), and
// the relay has one connection: a WAIT per write would queue every command behind it. One WAIT
// covers every earlier write of the connection, so writes that finished meanwhile share the next
// one (a group commit), one per hash tag (a Cluster sends it to the node of that slot).
//
// What WAIT counts, and why a paused replica gives one episode, not two: Redis answers WAIT with the
// replicas whose last acknowledged offset is at least the *connection's* offset after its last
// write, and it counts only replicas that are online (their first sync is over). The write check
// sends its SET on this connection just before its WAIT, so the offset it waits for is always past
// anything a replica acknowledged before it was paused: a frozen replica never satisfies it, and
// the episode lasts exactly as long as the pause (a test holds it across 25 write checks). A WAIT
// may rightly answer at once when the connection wrote nothing new (a script that changed nothing).
// What was once taken for an acknowledgement seconds into a pause was another episode: a relay
// started while its replica was still in its first sync (Redis starts it after its diskless-sync
// delay, 5 s by default) is not ready, says so, and says resolved once the replica is online.
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
