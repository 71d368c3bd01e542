// `npm run bench` (redis-memory): what the Redis limit store costs, on a private redis-server.
// Prints ONE table:
//   memory per 1,000,000 limit keys, measured (INFO memory used_memory before and after filling
//     through the store itself, pipelined): number records (cooldown + daily log, the commonest
//     key) and client records (rate log + daily counter)
//   memory per 1,000 pending calls (callback jobs as the relay stores them: hash + two sorted sets +
//     the per-number index) and per 1,000 finished Idempotency-Keys
//   latency of one consume (the limiter's five checks) and one peek, Redis on loopback vs the
//     memory store, sequential, median and p99
// Not part of `npm test`. BENCH_REDIS_KEYS overrides the key count (e.g. 100000 for a quick look;
// the figure is still given per 1,000,000).
import { NO_PROGRESS } from '../../server/src/callback/job-store.ts';
import { createHash } from 'node:crypto';
import { createMemoryLimitStore } from '../../server/src/limits/memory/limit-store.ts';
import type { CountRule, LimitCheck, LimitStore } from '../../server/src/limits/limit-store.ts';
import { connectRedis } from '../../server/src/storage/redis/connection.ts';
import { createRedisLimitStore } from '../../server/src/limits/redis/limit-store.ts';
import { createRedisCallbackJobStore } from '../../server/src/callback/stores/redis-job-store.ts';
import { createRedisIdempotencyStore } from '../../server/src/idempotency/redis-store.ts';
import { startRedisServer } from '../support/redis-server.ts';

const KEYS = Number(process.env.BENCH_REDIS_KEYS ?? 1_000_000);
const IN_PARALLEL = 512;
const LATENCY_OPS = 5_000;
const T0 = (19_676 * 86_400 + 1) * 1000;
const hex = (s: string) => createHash('sha256').update(s).digest('hex').slice(0, 32);

const numberCounts: readonly CountRule[] = [
  { reason: 'number_cooldown', limit: 1, windowSec: 120 },
  { reason: 'number_daily', limit: 3, windowSec: 86_400 },
];
const clientCounts: readonly CountRule[] = [
  { reason: 'client_rate', limit: 3, windowSec: 600 },
  { reason: 'client_daily', limit: 10, windowSec: 86_400 },
];
const siteCounts: readonly CountRule[] = [
  { reason: 'site_hourly_cap', limit: 65_000, windowSec: 3600 },
  { reason: 'site_daily_cap', limit: 65_000, windowSec: 86_400 },
];
const prefixCounts: readonly CountRule[] = [{ reason: 'prefix_rate', limit: 5, windowSec: 600 }];

/** The limiter's plan for request `i` (limits/plan.ts): five checks, fresh subjects. */
function plan(i: number): LimitCheck[] {
  const n = hex(`number${i}`);
  return [
    { table: 'number', key: n, counts: numberCounts },
    { table: 'client', key: hex(`client${i}`), counts: clientCounts },
    { table: 'client_numbers', key: hex(`cn${i}`), distinct: { reason: 'client_numbers', limit: 2, windowSec: 86_400, member: n } },
    { table: 'prefix', key: hex(`prefix${i}`), counts: prefixCounts },
    { table: 'site', key: hex('site'), counts: siteCounts },
  ];
}

async function fill(store: LimitStore, make: (i: number) => LimitCheck): Promise<void> {
  for (let start = 0; start < KEYS; start += IN_PARALLEL) {
    const batch = [];
    for (let i = start; i < Math.min(KEYS, start + IN_PARALLEL); i++) batch.push(store.consume([make(i)], T0));
    await Promise.all(batch);
  }
}

function quantiles(samples: number[]): { median: number; p99: number } {
  samples.sort((a, b) => a - b);
  return { median: samples[Math.floor(samples.length / 2)]!, p99: samples[Math.floor(samples.length * 0.99)]! };
}

async function latency(store: LimitStore): Promise<{ consume: ReturnType<typeof quantiles>; peek: ReturnType<typeof quantiles> }> {
  const consume: number[] = [];
  const peek: number[] = [];
  for (let i = 0; i < LATENCY_OPS; i++) {
    const checks = plan(i);
    let t = performance.now();
    await store.consume(checks, T0 + i);
    consume.push(performance.now() - t);
    t = performance.now();
    await store.peek(checks[1]!, T0 + i);
    peek.push(performance.now() - t);
  }
  return { consume: quantiles(consume), peek: quantiles(peek) };
}

const server = await startRedisServer({ persistent: false });
const HEALTH_KEY = 'dialback:{dialback:health}:check';
const log = { info() {}, warn() {}, error: (msg: string) => console.error(msg) };
const connection = connectRedis({ url: server.url, prefix: 'dialback:', commandTimeoutMs: 30_000, connectTimeoutMs: 3_000 }, { log });
try {
  if (!(await connection.waitReady(5_000))) throw new Error('the private redis-server did not become ready');
  const store = createRedisLimitStore({ connection });
  const used = async () => {
    const info = await connection.client.info('memory');
    return Number(/used_memory:(\d+)/.exec(info)![1]);
  };
  const rows: Array<[string, string]> = [];
  const perMillion = (bytes: number) => `${(((bytes / KEYS) * 1_000_000) / 1024 / 1024).toFixed(1)} MB (${(bytes / KEYS).toFixed(0)} B/key)`;

  for (const [name, make] of [
    ['number', (i: number): LimitCheck => ({ table: 'number', key: hex(`n${i}`), counts: numberCounts })],
    ['client', (i: number): LimitCheck => ({ table: 'client', key: hex(`c${i}`), counts: clientCounts })],
  ] as const) {
    await connection.client.flushAll();
    const before = await used();
    const started = performance.now();
    await fill(store, make);
    const seconds = (performance.now() - started) / 1000;
    const after = await used();
    // The connection's write check keeps one key of its own (health.ts): not a limit key.
    const dbsize = (await connection.client.dbSize()) - (await connection.client.exists(HEALTH_KEY));
    if (dbsize !== KEYS) throw new Error(`expected ${KEYS} limit keys, found ${dbsize}`);
    rows.push([`memory per 1,000,000 ${name} keys`, `${perMillion(after - before)}; filled ${KEYS.toLocaleString('en')} at ${Math.round(KEYS / seconds).toLocaleString('en')}/s`]);
  }
  await connection.client.flushAll();

  // Pending calls: a realistic job (attribution, page URL, user agent) per number.
  const JOBS = Number(process.env.BENCH_REDIS_JOBS ?? 100_000);
  const jobs = createRedisCallbackJobStore({ connection, retentionDays: 30 });
  let before = await used();
  for (let start = 0; start < JOBS; start += IN_PARALLEL) {
    const batch = [];
    for (let i = start; i < Math.min(JOBS, start + IN_PARALLEL); i++) {
      const e164 = `+38050${String(1_000_000 + i).padStart(7, '0')}`;
      batch.push(
        jobs.add(
          {
            callbackId: `7f3c${String(i).padStart(4, '0')}-1b2c-4d5e-8f90-${String(i).padStart(12, '0')}`,
            requestedAs: 'scheduled',
            stage: 'scheduled',
            dueAt: T0 + 3_600_000 + i,
            progress: { ...NO_PROGRESS, scheduledFor: T0 + 3_600_000 + i },
            request: {
              e164,
              attribution: { utmSource: 'google', utmMedium: 'cpc', utmCampaign: 'spring_sale', clientId: '1234567890.1712345678' },
              clientIp: '203.0.113.9',
              userAgent: 'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/124.0 Safari/537.36',
              origin: 'https://shop.example.com',
              pageUrl: 'https://shop.example.com/catalog/item-42?utm_source=google&utm_medium=cpc',
              locale: 'uk',
            },
            numberHash: hex(`number ${e164}`) + hex(`more ${e164}`),
            maskedNumber: `+380 50 *** **${e164.slice(-2)}`,
            cancelToken: hex(`token ${i}`),
          },
          T0,
        ),
      );
    }
    await Promise.all(batch);
  }
  rows.push([`memory per 1,000 pending calls`, `${(((await used()) - before) / JOBS).toFixed(0)} kB (${JOBS.toLocaleString('en')} jobs stored)`]);
  await connection.client.flushAll();

  const idem = createRedisIdempotencyStore({ connection, hashSecret: 'x'.repeat(32), ttlSec: 86_400, maxKeys: 10_000_000 });
  before = await used();
  for (let start = 0; start < JOBS; start += IN_PARALLEL) {
    const batch = [];
    for (let i = start; i < Math.min(JOBS, start + IN_PARALLEL); i++) {
      batch.push(
        idem
          .begin('https://shop.example.com', `key-${i}-0123456789abcdef`, hex(`body ${i}`))
          .then((b) =>
            b.kind === 'new'
              ? b.ticket.complete({ status: 202, body: { status: 'accepted', requestId: `7f3c-${i}`, phoneMasked: '+380 50 *** **67', estimateSeconds: 30 }, headers: {} })
              : undefined,
          ),
      );
    }
    await Promise.all(batch);
  }
  rows.push([`memory per 1,000 Idempotency-Keys (answered)`, `${(((await used()) - before) / JOBS).toFixed(0)} kB`]);
  await connection.client.flushAll();

  const memory = createMemoryLimitStore({ maxKeysPerTable: 1_000_000, startMs: T0 });
  const fmt = (q: { median: number; p99: number }) => `${(q.median * 1000).toFixed(0)} µs median, ${(q.p99 * 1000).toFixed(0)} µs p99`;
  const m = await latency(memory);
  const r = await latency(store);
  rows.push(['consume (5 checks), memory store', fmt(m.consume)]);
  rows.push(['consume (5 checks), Redis (loopback)', fmt(r.consume)]);
  rows.push(['peek (1 check), memory store', fmt(m.peek)]);
  rows.push(['peek (1 check), Redis (loopback)', fmt(r.peek)]);

  const width = Math.max(...rows.map(([k]) => k.length));
  console.log(`redis-server ${(await connection.client.info('server')).match(/redis_version:(\S+)/)?.[1]}, ${KEYS.toLocaleString('en')} keys per table`);
  for (const [k, v] of rows) console.log(`${k.padEnd(width)}  ${v}`);
} finally {
  await connection.close();
  await server.stop();
}
