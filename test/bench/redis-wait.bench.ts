// `npm run bench` (redis-wait): what REDIS_MIN_REPLICAS=1 costs. A private primary and one replica
// on loopback; the guarding write every callback makes (an Idempotency-Key taken) through the store
// itself, with and without WAIT 1 for the replica's acknowledgement. Prints ONE table: median and
// p99 of one begin, sequential, and throughput with 64 in parallel. Loopback replication is the best
// case: across a LAN add one round trip to the replica (~0.2–1 ms) per guarding write.
// The replica's first sync is over before anything is measured (until then it loads the primary,
// and the first row measured would pay for it), and the two settings take turns for ROUNDS rounds,
// each row the median of its rounds: one slow moment of the machine cannot land on one row only.
import { connectRedis, type RedisConnection } from '../../server/src/storage/redis/connection.ts';
import { createRedisIdempotencyStore } from '../../server/src/idempotency/redis-store.ts';
import { startRedisServer } from '../support/redis-server.ts';

const SEQUENTIAL = Number(process.env.BENCH_WAIT_OPS ?? 3_000);
const ROUNDS = 3;
const PARALLEL = 64;
const quiet = { info() {}, warn() {}, error() {} };

const primary = await startRedisServer({ persistent: false });
const replica = await startRedisServer({ persistent: false, config: { replicaof: `127.0.0.1 ${primary.port}` } });

/** Resolves once the replica's link to the primary is up and its first sync is done. */
async function replicaOnline(connection: RedisConnection): Promise<void> {
  const deadline = Date.now() + 30_000;
  while (!/^slave0:.*state=online/m.test(await connection.client.info('replication'))) {
    if (Date.now() > deadline) throw new Error('the bench replica did not come online within 30 s');
    await new Promise((r) => setTimeout(r, 100));
  }
}

let opened = 0;

async function open(minReplicas: number): Promise<RedisConnection> {
  const connection = connectRedis(
    {
      url: primary.url,
      prefix: `bw${minReplicas}-${opened++}:`, // each run its own keys
      commandTimeoutMs: 2_000,
      connectTimeoutMs: 3_000,
      ...(minReplicas > 0 && { durability: { minReplicas, replicaWaitMs: 1_000 } }),
    },
    { log: quiet },
  );
  if (!(await connection.waitReady(10_000))) throw new Error('the bench redis (with its replica) is not ready');
  return connection;
}

async function measure(minReplicas: number) {
  const connection = await open(minReplicas);
  const store = createRedisIdempotencyStore({ connection, hashSecret: 'bench-secret-0123456789abcdef0123', ttlSec: 600, maxKeys: 1_000_000 });
  let n = 0;
  const one = () => store.begin('bench', `key-${minReplicas}-${n++}`, 'fingerprint');
  for (let i = 0; i < 200; i++) await one(); // warm-up: scripts loaded, JIT
  const times: number[] = [];
  for (let i = 0; i < SEQUENTIAL; i++) {
    const started = performance.now();
    await one();
    times.push(performance.now() - started);
  }
  times.sort((a, b) => a - b);
  const started = performance.now();
  let done = 0;
  await Promise.all(
    Array.from({ length: PARALLEL }, async () => {
      while (done < SEQUENTIAL) {
        done++;
        await one();
      }
    }),
  );
  const perSecond = SEQUENTIAL / ((performance.now() - started) / 1000);
  await connection.close();
  return { median: times[Math.floor(times.length / 2)]!, p99: times[Math.floor(times.length * 0.99)]!, perSecond };
}

const middle = (values: number[]) => values.sort((a, b) => a - b)[Math.floor(values.length / 2)]!;

try {
  const probe = await open(0);
  await replicaOnline(probe);
  await probe.close();
  const runs: Record<0 | 1, Array<Awaited<ReturnType<typeof measure>>>> = { 0: [], 1: [] };
  for (let round = 0; round < ROUNDS; round++) for (const min of [0, 1] as const) runs[min].push(await measure(min));
  const summary = (min: 0 | 1) => ({
    median: middle(runs[min].map((r) => r.median)),
    p99: middle(runs[min].map((r) => r.p99)),
    perSecond: middle(runs[min].map((r) => r.perSecond)),
  });
  const rows = [
    ['REDIS_MIN_REPLICAS=0', summary(0)],
    ['REDIS_MIN_REPLICAS=1 (WAIT 1)', summary(1)],
  ] as const;
  console.log('| Idempotency-Key taken (idempotency.begin) | median | p99 | 64 in parallel |');
  console.log('|---|---|---|---|');
  for (const [name, r] of rows) console.log(`| ${name} | ${r.median.toFixed(3)} ms | ${r.p99.toFixed(3)} ms | ${Math.round(r.perSecond).toLocaleString('en')}/s |`);
} finally {
  await replica.stop();
  await primary.stop();
}
