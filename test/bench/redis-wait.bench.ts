// `npm run bench` (redis-wait): what REDIS_MIN_REPLICAS=1 costs. A private primary and one replica
// on loopback; the guarding write every callback makes (an Idempotency-Key taken) through the store
// itself, with and without WAIT 1 for the replica's acknowledgement. Prints ONE table: median and
// p99 of one begin, sequential, and throughput with 64 in parallel. Loopback replication is the best
// case: across a LAN add one round trip to the replica (~0.2–1 ms) per guarding write.
import { connectRedis, type RedisConnection } from '../../server/src/storage/redis/connection.ts';
import { createRedisIdempotencyStore } from '../../server/src/idempotency/redis-store.ts';
import { startRedisServer } from '../support/redis-server.ts';

const SEQUENTIAL = Number(process.env.BENCH_WAIT_OPS ?? 3_000);
const PARALLEL = 64;
const quiet = { info() {}, warn() {}, error() {} };

const primary = await startRedisServer({ persistent: false });
const replica = await startRedisServer({ persistent: false, config: { replicaof: `127.0.0.1 ${primary.port}` } });

async function open(minReplicas: number): Promise<RedisConnection> {
  const connection = connectRedis(
    {
      url: primary.url,
      prefix: `bw${minReplicas}:`,
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

try {
  const rows = [
    ['REDIS_MIN_REPLICAS=0', await measure(0)],
    ['REDIS_MIN_REPLICAS=1 (WAIT 1)', await measure(1)],
  ] as const;
  console.log('| Idempotency-Key taken (idempotency.begin) | median | p99 | 64 in parallel |');
  console.log('|---|---|---|---|');
  for (const [name, r] of rows) console.log(`| ${name} | ${r.median.toFixed(3)} ms | ${r.p99.toFixed(3)} ms | ${Math.round(r.perSecond).toLocaleString('en')}/s |`);
} finally {
  await replica.stop();
  await primary.stop();
}
