// Evicting keys under memory pressure would drop limits and Idempotency-Keys: the limits would fail
// open. With noeviction Redis refuses writes instead, and the stores fail closed. So the relay looks
// once, when it first connects, and warns when the policy is otherwise. Managed services may forbid
// CONFIG: then nothing is said.
import type { Client } from './client.ts';
import type { RedisLog } from './connection.ts';

/** A check that runs the first time it is called and never again. */
export function onceEvictionPolicyChecked(client: Client, log: RedisLog): () => void {
  let checked = false;
  return () => {
    if (checked) return;
    checked = true;
    client
      .configGet('maxmemory-policy')
      .then((reply) => {
        const policy = String((reply as Record<string, string>)['maxmemory-policy'] ?? '');
        if (policy && policy !== 'noeviction') {
          log.warn('redis maxmemory-policy is not noeviction: under memory pressure Redis may evict limit keys and the limits would fail open; set maxmemory-policy noeviction', {
            policy,
          });
        }
      })
      .catch(() => {});
  };
}
