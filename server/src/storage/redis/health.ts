// Whether Redis can take a callback right now, and the one ALERT line per episode when it cannot:
// reachable is not enough (a replica refuses writes, a full Redis under noeviction too, a cluster node
// answers MOVED). Each case makes /readyz say not ready and logs a stable `alert` field, then a
// `resolved: true` line when it is over. The cases: storage/README.md.
import type { RedisLog } from './connection.ts';

export type RedisProblem = 'unreachable' | 'read_only' | 'out_of_memory' | 'moved' | 'cluster_down' | 'loading' | 'not_replicated';

const ALERTS: Record<RedisProblem, string> = {
  unreachable: 'ALERT redis unreachable: new callbacks are refused (503) until it is back',
  read_only: 'ALERT redis read-only (a replica, READONLY): new callbacks are refused (503) until the relay reaches a primary',
  out_of_memory: 'ALERT redis out of memory (maxmemory reached, writes refused with OOM): new callbacks are refused (503) until it has room',
  moved: 'ALERT redis is a cluster node (MOVED) but REDIS_CLUSTER is not true: new callbacks are refused (503); set REDIS_CLUSTER=true',
  cluster_down: 'ALERT redis cluster is down (CLUSTERDOWN: a slot the relay writes is not served): new callbacks are refused (503) until it is whole',
  loading: 'ALERT redis is loading its data: new callbacks are refused (503) until it is done',
  not_replicated: 'ALERT redis replicas do not acknowledge writes (WAIT, REDIS_MIN_REPLICAS): new callbacks are refused (503) until they do',
};

const RECOVERED: Record<RedisProblem, string> = {
  unreachable: 'redis reachable again',
  read_only: 'redis takes writes again (primary)',
  out_of_memory: 'redis takes writes again (memory)',
  moved: 'redis answers for every key again',
  cluster_down: 'redis cluster serves every slot again',
  loading: 'redis done loading',
  not_replicated: 'redis replicas acknowledge writes again',
};

/** The problem an error reply names, or null for any other error (a script's own, a wrong type…). */
export function problemOfReply(message: string): RedisProblem | null {
  if (message.startsWith('READONLY')) return 'read_only';
  if (message.startsWith('OOM')) return 'out_of_memory';
  if (message.startsWith('CLUSTERDOWN')) return 'cluster_down';
  if (message.startsWith('MOVED') || message.startsWith('ASK') || message.startsWith('CROSSSLOT')) return 'moved';
  if (message.startsWith('LOADING') || message.startsWith('MASTERDOWN')) return 'loading';
  // Our own reply (connection.ts): WAIT got fewer acknowledgements than REDIS_MIN_REPLICAS.
  if (message.startsWith('NOTREPLICATED') || message.startsWith('NOREPLICAS')) return 'not_replicated';
  return null;
}

export interface RedisHealth {
  /** null: Redis takes writes; otherwise why not ('unreachable' until the first check has answered). */
  readonly problem: RedisProblem | null;
  /** Records what the last check or command found; logs only when it changes. */
  set(problem: RedisProblem | null, cause?: unknown): void;
}

export function createRedisHealth(log: RedisLog, onChange?: (problem: RedisProblem | null) => void): RedisHealth {
  /** 'unknown' until the first connection attempt or check has ended either way. */
  let state: RedisProblem | null | 'unknown' = 'unknown';
  let since = Date.now();
  /**
   * The causes already told in this episode (from not taking writes to taking them again): a cause
   * that comes back within it (a replica that also times out now and then) is not told twice.
   */
  const told = new Set<RedisProblem>();
  return {
    get problem() {
      return state === 'unknown' ? 'unreachable' : state;
    },
    set(next, cause) {
      if (next === state) return;
      const was = state;
      state = next;
      if (next === null) {
        if (was === 'unknown') log.info('redis connected');
        for (const problem of told) log.warn(RECOVERED[problem], { alert: `redis_${problem}`, resolved: true, downMs: Date.now() - since });
        told.clear();
      } else {
        if (told.size === 0) since = Date.now();
        if (!told.has(next)) log.error(ALERTS[next], { alert: `redis_${next}`, reason: describe(cause) });
        told.add(next);
      }
      onChange?.(next);
    },
  };
}

function describe(cause: unknown): string {
  if (cause instanceof Error) return cause.message || cause.name;
  return cause === undefined ? 'unknown' : String(cause);
}
