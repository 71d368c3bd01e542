// The relay bench's side-by-side rows: the same relay on each store an operator can choose (the
// embedded SQLite store, one Redis, Redis behind Sentinel, a Redis Cluster), measured in turn in
// the same rounds against the same baseline, so drift on a shared machine hits them all alike.
// Each Redis relay counts its store calls (one command each: a script, a MULTI or a plain
// command), so a row shows what a request costs in Redis round trips as well as in req/s.
import type { Config } from '../../server/src/config/index.ts';
import type { Logger } from '../../server/src/log/index.ts';
import { openRedisStores } from '../../server/src/app/redis-stores.ts';
import { createRelay } from '../../server/src/relay.ts';
import { connectRedis } from '../../server/src/storage/redis/connection.ts';
import { listen, type Listening } from '../support/listen.ts';
import { startRedisCluster } from '../support/redis-cluster.ts';
import { MASTER_NAME, startSentinelGroup } from '../support/redis-sentinel.ts';
import { startRedisServer } from '../support/redis-server.ts';
import { checkedLoad, load, type LoadSpec } from './load.ts';

export type RedisKind = 'redis' | 'sentinel' | 'cluster';
export const STORE_NAMES = {
  embedded: 'embedded (SQLite)',
  redis: 'Redis (REDIS_URL)',
  sentinel: 'Sentinel (primary, replica, 3 sentinels)',
  cluster: 'Cluster (3 primaries)',
} as const;
export type StoreKind = keyof typeof STORE_NAMES;

/** A relay on loopback; `calls()`: the store calls it has made so far (Redis relays only). */
export interface BenchRelay {
  kind: StoreKind;
  url: string;
  calls?: () => number;
  close(): Promise<void>;
}

/** The three Redis deployments, each started for the bench, without persistence (as the plain one always was). */
export async function startRedisDeployments() {
  const [plain, sentinel, cluster] = await Promise.all([startRedisServer({ persistent: false }), startSentinelGroup({ persistent: false }), startRedisCluster(3, false)]);
  let prefixes = 0;
  return {
    /** The env that points a relay at `kind`, under a key prefix of its own. */
    envOf(kind: RedisKind): Record<string, string> {
      const prefix = { REDIS_PREFIX: `bench${++prefixes}:` };
      if (kind === 'sentinel') return { ...prefix, REDIS_SENTINELS: sentinel.sentinels, REDIS_SENTINEL_NAME: MASTER_NAME };
      if (kind === 'cluster') return { ...prefix, REDIS_URL: cluster.seeds, REDIS_CLUSTER: 'true' };
      return { ...prefix, REDIS_URL: plain.url };
    },
    stop: () => Promise.all([plain.stop(), sentinel.stop(), cluster.stop()]).then(() => undefined),
  };
}

/** A relay whose state is in Redis as `config` says, counting its store calls. */
export async function redisRelay(kind: RedisKind, config: Config, log: Logger): Promise<BenchRelay> {
  let calls = 0;
  const connection = connectRedis(config.redis!, { log, observer: { command: () => void calls++ }, name: 'dialback-bench' });
  if (!(await connection.waitReady(10_000))) throw new Error(`the bench's ${kind} Redis did not answer`);
  const stores = openRedisStores(config, log, { connection });
  const relay = createRelay({ config, log, stores });
  const listening: Listening = await listen(relay.server);
  return {
    kind,
    url: listening.url,
    calls: () => calls,
    async close() {
      await listening.close();
      await relay.close();
      await stores.close();
    },
  };
}

export interface SideBySideRow {
  kind: StoreKind;
  rps: number;
  baseline: number;
  ratio: number;
  /** Store calls per request in the best round (Redis relays). */
  callsPerRequest?: number;
  /** Answers other than the one expected, over every round, by status (e.g. a 503 when a command missed REDIS_TIMEOUT_MS). */
  unexpected: Record<string, number>;
}

/**
 * Best of `rounds`; each round runs the baseline, then every relay in turn, with `spec(url)`, after
 * `prepare(url)` (e.g. a number's first call, so that its cooldown covers the run). Every ratio is
 * to the best baseline of the same rounds. Refuses a figure with any unexpected answer.
 */
export async function sideBySide(
  relays: BenchRelay[],
  spec: (url: string) => LoadSpec,
  baseline: LoadSpec,
  rounds: number,
  prepare?: (url: string) => Promise<unknown>,
): Promise<SideBySideRow[]> {
  let bestBaseline = 0;
  const best = relays.map(() => ({ rps: 0, callsPerRequest: undefined as number | undefined }));
  const unexpected = relays.map((): Record<string, number> => ({}));
  for (let round = 0; round < rounds; round++) {
    bestBaseline = Math.max(bestBaseline, (await checkedLoad(baseline)).rps);
    for (const [i, relay] of relays.entries()) {
      await prepare?.(relay.url);
      const before = relay.calls?.();
      // A few wrong answers are reported beside the figure, not fatal: on a loaded machine a Redis
      // command can miss its deadline (503) where nothing is wrong with the relay.
      const r = await load(spec(relay.url));
      for (const [status, n] of Object.entries(r.statuses)) if (Number(status) !== spec(relay.url).expectStatus) unexpected[i]![status] = (unexpected[i]![status] ?? 0) + n;
      if (r.rps > best[i]!.rps) best[i] = { rps: r.rps, callsPerRequest: before === undefined ? undefined : (relay.calls!() - before) / r.done };
    }
  }
  return relays.map((relay, i) => ({
    kind: relay.kind,
    rps: best[i]!.rps,
    baseline: bestBaseline,
    ratio: best[i]!.rps / bestBaseline,
    ...(best[i]!.callsPerRequest !== undefined && { callsPerRequest: best[i]!.callsPerRequest }),
    unexpected: unexpected[i]!,
  }));
}
