// The relay's one connection to Redis (REDIS_URL), with the settings that make an outage cheap: no
// offline queue (a command fails at once while Redis is down: 503, nothing piles up), a deadline on
// every command, reconnects forever, one ALERT line per episode, and a write check behind `ready`.
// Every key is `<prefix>{<prefix><group>}:…`, so a multi-key script stays in one Cluster slot.
// Each setting and why: storage/README.md.
import { ErrorReply } from 'redis';
import { StoreUnavailableError } from '../errors.ts';
import type { RedisSettings } from '../../config/redis.ts';
import { type Client, createRedisClient, type Topology } from './client.ts';
import { createRedisHealth, problemOfReply } from './health.ts';
import { createReplicaWait } from './replica-wait.ts';
import { onceEvictionPolicyChecked } from './eviction-policy.ts';
import { classify, type LuaScript, withDeadline } from './commands.ts';
import { CHECK_KEY_TTL_MS, CHECK_VALUE, checkKeys } from './check-key.ts';

export { lua, type LuaScript } from './commands.ts';
export { KEY_GROUPS } from './check-key.ts';

/** The logger calls this module makes (log/logger.ts has them). */
export interface RedisLog {
  info(msg: string, fields?: Record<string, unknown>): void;
  warn(msg: string, fields?: Record<string, unknown>): void;
  error(msg: string, fields?: Record<string, unknown>): void;
}

export type CommandOutcome = 'ok' | 'error' | 'timeout' | 'offline';

/** Hooks for metrics: called synchronously, must not throw. */
export interface RedisObserver {
  /** One command: e.g. a histogram dialback_redis_command_duration_seconds{operation,outcome}. */
  command?(operation: string, seconds: number, outcome: CommandOutcome): void;
  /** Reachability changed: e.g. a gauge dialback_redis_up. */
  state?(up: boolean): void;
  /** Whether Redis takes writes changed: e.g. a gauge dialback_redis_writable. */
  writable?(writable: boolean): void;
}

export interface RedisConnection {
  readonly client: Client;
  /** standalone, sentinel or cluster (REDIS_SENTINELS, REDIS_CLUSTER). */
  readonly topology: Topology;
  readonly prefix: string;
  /** `<prefix>{<prefix><group>}:`: the start of every key of `group`; one group, one Cluster slot. */
  keyspace(group: string): string;
  /** True while connected, answering and taking writes (the last write check passed). */
  readonly ready: boolean;
  /** Resolves true once ready, false after `timeoutMs` (the connection keeps trying either way). */
  waitReady(timeoutMs: number): Promise<boolean>;
  /** Runs `command` under the deadline, observed; every failure becomes a StoreUnavailableError. */
  run<T>(operation: string, command: (client: Client) => Promise<T>): Promise<T>;
  /**
   * EVALSHA, falling back to EVAL when the server has not seen the script (after a restart).
   * `durable`: a write that prevents a second call; with REDIS_MIN_REPLICAS it is not done until
   * that many replicas acknowledged it (WAIT), and fails (StoreUnavailableError) when they did not.
   */
  evalScript(operation: string, script: LuaScript, keys: readonly string[], args: readonly (string | number)[], options?: { durable?: boolean }): Promise<unknown>;
  /** PING under the deadline: false when Redis does not answer (for /readyz). */
  ping(): Promise<boolean>;
  /** Closes the connection (graceful while connected; at once otherwise). */
  close(): Promise<void>;
}

export interface ConnectOptions {
  log: RedisLog;
  observer?: RedisObserver;
  /** Client name shown by CLIENT LIST. */
  name?: string;
}

/** How often a suspect connection is probed. */
const PROBE_INTERVAL_MS = 250;
/** Default of REDIS_CHECK_MS: how often the write check runs while connected. */
const CHECK_INTERVAL_MS = 1_000;

export function connectRedis(settings: RedisSettings, options: ConnectOptions): RedisConnection {
  const { log, observer } = options;
  const { client, topology } = createRedisClient(settings, options.name ?? 'dialback');

  /** null until the first connection attempt ends either way. */
  let up: boolean | null = null;
  let suspect = false;
  let probing = false;
  let closed = false;
  const health = createRedisHealth(log, (problem) => observer?.writable?.(problem === null));

  function setUp(next: boolean, cause?: unknown): void {
    if (closed) return;
    if (!next) health.set('unreachable', cause);
    if (up === next) return;
    up = next;
    observer?.state?.(next);
    // Reachable is not yet writable: the write check decides (and clears 'unreachable').
    if (next) void checkWrites();
  }

  // node-redis emits 'error' for every failed attempt; without a listener it would crash the process.
  client.on('error', (err: unknown) => {
    // A Cluster reports each node's trouble here while the others serve: the write check decides.
    if (topology === 'cluster' && client.isReady) return;
    setUp(false, err);
    // Sentinel: the primary's connection failed, yet the client still says ready and would hold
    // commands while it looks for a new primary. Fail them fast instead until a PING answers.
    if (topology === 'sentinel') markSuspect(err);
  });
  client.on('ready', () => {
    suspect = false;
    topologyChecked = false;
    setUp(true);
    void checkWrites();
    checkEvictionPolicy();
  });

  // One key of our own; in a Cluster one in each key group's slot, so a node down (or a slot not
  // served) anywhere the stores write is seen, not only where one key happens to hash.
  const healthKeys = checkKeys({ prefix: settings.prefix, topology: settings.topology ?? { kind: 'standalone' } });
  let checking = false;
  /** Error replies that named a problem so far: a write check only clears what came before it. */
  let problemsSeen = 0;
  let topologyChecked = false;
  /** A node with cluster mode on, reached by a client without it: most keys answer MOVED. */
  let clusterNode = false;
  /** Can Redis take a write now? One SET with an expiry; its answer (or error) sets the health. */
  async function checkWrites(): Promise<void> {
    if (closed || checking || !isReady()) return;
    checking = true;
    const problemsBefore = problemsSeen;
    try {
      if (!topologyChecked) {
        // A cluster client is meant for cluster nodes (and INFO goes to one node of its choice).
        const info = topology === 'cluster' ? '' : await run('health.topology', (c) => c.info('cluster')).catch(() => '');
        clusterNode = /cluster_enabled:1/.test(String(info));
        topologyChecked = true;
      }
      await run('health.write', (c) =>
        Promise.all(
          healthKeys.map(async (key) => {
            await c.set(key, CHECK_VALUE, { PX: CHECK_KEY_TTL_MS });
            await replicated(c, key);
          }),
        ),
      );
      // A command that failed while this check was under way saw Redis later than the check did
      // (a replica paused after the check's WAIT was answered): it stands until the next check.
      if (problemsSeen !== problemsBefore) return;
      health.set(clusterNode ? 'moved' : null, clusterNode ? new Error('cluster_enabled:1 on a client without REDIS_CLUSTER') : undefined);
    } catch (err) {
      // run() has recorded an error reply it names; a node that cannot be reached (a Cluster's
      // one node, which leaves the client itself ready) is recorded here.
      if (err instanceof StoreUnavailableError && err.reason === 'disconnected') health.set('unreachable', err);
    } finally {
      checking = false;
    }
  }
  const checkTimer = setInterval(() => void checkWrites(), settings.checkIntervalMs ?? CHECK_INTERVAL_MS);
  checkTimer.unref();

  const checkEvictionPolicy = onceEvictionPolicyChecked(client, log);
  client.connect().catch(() => {
    // Only when closed while connecting: the reconnect strategy never gives up.
  });

  /** Connected and answering: commands may be sent (the write check needs this, not health). */
  const isReady = () => client.isReady && !suspect;

  /** A command timed out: fail fast until a PING answers again. */
  function markSuspect(cause: unknown): void {
    suspect = true;
    setUp(false, cause);
    if (probing) return;
    probing = true;
    void (async () => {
      while (!closed && suspect) {
        try {
          if (client.isReady) {
            await withDeadline(client.ping(), settings.commandTimeoutMs);
            suspect = false;
            setUp(true);
            break;
          }
        } catch {
          // still not answering
        }
        await new Promise((r) => setTimeout(r, PROBE_INTERVAL_MS).unref());
      }
      probing = false;
    })();
  }

  /** REDIS_MIN_REPLICAS: waits for the replicas after a guarding write (replica-wait.ts). */
  const replicated = createReplicaWait(topology, settings.durability);

  async function run<T>(operation: string, command: (c: Client) => Promise<T>): Promise<T> {
    const started = performance.now();
    const done = (outcome: CommandOutcome) => observer?.command?.(operation, (performance.now() - started) / 1000, outcome);
    if (!isReady()) {
      done('offline');
      throw new StoreUnavailableError(operation, 'disconnected');
    }
    try {
      const result = await withDeadline(command(client), settings.commandTimeoutMs);
      done('ok');
      return result;
    } catch (err) {
      const reason = classify(err);
      done(reason === 'timeout' ? 'timeout' : reason === 'disconnected' ? 'offline' : 'error');
      if (reason === 'timeout') markSuspect(err);
      const problem = err instanceof ErrorReply ? problemOfReply(err.message) : null;
      if (problem) {
        problemsSeen++;
        health.set(problem, err);
      }
      throw new StoreUnavailableError(operation, reason, err);
    }
  }

  return {
    client,
    topology,
    prefix: settings.prefix,
    keyspace: (group) => `${settings.prefix}{${settings.prefix}${group}}:`,
    get ready() {
      return isReady() && health.problem === null;
    },
    async waitReady(timeoutMs) {
      const deadline = Date.now() + timeoutMs;
      while (!(isReady() && health.problem === null)) {
        if (Date.now() >= deadline || closed) return false;
        await new Promise((r) => setTimeout(r, 20));
      }
      return true;
    },
    run,
    evalScript(operation, script, keys, args, { durable = false } = {}) {
      return run(operation, async (c) => {
        // evalSha, not sendCommand: a cluster client routes it by its first key.
        const options = { keys: [...keys], arguments: args.map(String) };
        let result: unknown;
        try {
          result = await c.evalSha(script.sha, options);
        } catch (err) {
          if (!(err instanceof ErrorReply) || !err.message.startsWith('NOSCRIPT')) throw err;
          result = await c.eval(script.source, options);
        }
        if (durable) await replicated(c, keys[0]!);
        return result;
      });
    },
    async ping() {
      try {
        await run('ping', (c) => c.ping());
        return true;
      } catch {
        return false;
      }
    },
    async close() {
      if (closed) return;
      closed = true;
      clearInterval(checkTimer);
      if (client.isReady) {
        try {
          await withDeadline(client.close(), settings.commandTimeoutMs);
          return;
        } catch {
          // fall through to destroy
        }
      }
      if (client.isOpen) client.destroy();
    },
  };
}
