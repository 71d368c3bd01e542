// `npm run bench report`: the owner's heaviest report after a year of a beacon flood. A year of
// flood data (366 days of ~5,000 open groups, each its own utm source, beside the real traffic of
// five sources and 30 leads a day: 1.9 M open groups) is built straight into the store, a relay is
// started on it, and the 366-day report is asked for while another process asks for /healthz every
// 5 ms. Prints ONE table: the report's time (goal ≤ 1 s) and size, /healthz's worst and 99th
// percentile latency meanwhile (goal ≤ 50 ms) and, as long again, with the relay at rest (what the
// machine's load alone costs), and how far the relay's heap grew, on the embedded store and Redis.
import { mkdtempSync, rmSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { loadConfig, secretsOf, type Config } from '../../server/src/config/index.ts';
import { createLogger } from '../../server/src/log/index.ts';
import { createRelay } from '../../server/src/relay.ts';
import { openEmbeddedStores } from '../../server/src/app/relay-stores.ts';
import { connectRedis } from '../../server/src/storage/redis/connection.ts';
import { openDatabase } from '../../server/src/storage/sqlite/database.ts';
import { listen } from '../support/listen.ts';
import { startRedisServer } from '../support/redis-server.ts';
import { type FloodSpec, floodRedis, floodSqlite } from '../support/report-flood.ts';
import { startHealthzProbe } from './healthz-probe.ts';
import { redisRelay } from './store-relays.ts';

const TZ = 'Europe/Kyiv';
const SPEC: FloodSpec = { from: '2025-11-25', days: 366, floodGroups: 4_995, leadsPerDay: 30, timeZone: TZ };
const QUERY = 'from=2025-11-25&to=2026-11-25';
const TOKEN = 'bench-owner-Token-0123456789-abcdefghijklmnop';
const ROUNDS = 3;
const quiet = { info() {}, warn() {}, error() {} };

const configFor = (env: Record<string, string>): Config =>
  loadConfig({
    PORT: '0',
    LOG_LEVEL: 'warn',
    CALLTRACKING_BASE_URL: 'http://127.0.0.1:9',
    CALLTRACKING_AUTH_KEY: 'bench-auth-key-0000',
    CALLTRACKING_PROJECT_ID: '1',
    CALLTRACKING_TIMEZONE: TZ,
    CALLBACK_CALLER: '380441112233',
    ALLOWED_ORIGINS: 'https://shop.example',
    HASH_SECRET: 'bench-hash-secret-000000',
    OWNER_TOKEN: TOKEN,
    ...env,
  });
const logFor = (config: Config) => createLogger({ level: config.log.level, secrets: secretsOf(config), destination: '/dev/null' });

interface Row {
  store: string;
  by: string;
  reportMs: number[];
  bytes: number;
  healthWorst: number;
  healthP99: number;
  healthAsked: number;
  /** /healthz requests that failed (refused, reset) while the report ran. */
  unanswered: number;
  /** The most the process's heap grew over its size before the report, in any round. */
  heapGrowth: number;
  /** /healthz with no report running, as long: what the machine alone costs. */
  restWorst: number;
  restP99: number;
}

const worstAndP99 = (times: number[]) => {
  const sorted = [...times].sort((a, b) => a - b);
  return { worst: sorted.at(-1)!, p99: sorted[Math.floor(sorted.length * 0.99)]! };
};

/** The 366-day report `ROUNDS` times, /healthz asked every 5 ms meanwhile from a process of its own (healthz-probe.ts). */
async function measure(store: string, url: string, by: string): Promise<Row> {
  const reportMs: number[] = [];
  const health: number[] = [];
  let bytes = 0;
  let heapGrowth = 0;
  const rest: number[] = [];
  let unanswered = 0;
  for (let round = 0; round < ROUNDS; round++) {
    (globalThis as { gc?: () => void }).gc?.();
    const heapBefore = process.memoryUsage().heapUsed;
    const heap = setInterval(() => (heapGrowth = Math.max(heapGrowth, process.memoryUsage().heapUsed - heapBefore)), 10);
    const probe = await startHealthzProbe(url);
    const started = performance.now();
    const res = await fetch(`${url}/owner/api/report?${QUERY}&by=${by}`, { headers: { 'x-owner-token': TOKEN } });
    const body = await res.arrayBuffer();
    reportMs.push(performance.now() - started);
    clearInterval(heap);
    const answered = await probe.stop();
    unanswered += answered.filter((t) => t < 0).length;
    health.push(...answered.filter((t) => t >= 0));
    if (res.status !== 200) throw new Error(`the report answered ${res.status}`);
    bytes = body.byteLength;
    // The same probe as long again with the relay at rest.
    const idle = await startHealthzProbe(url);
    await new Promise((r) => setTimeout(r, reportMs.at(-1)!));
    rest.push(...(await idle.stop()));
  }
  const during = worstAndP99(health);
  const atRest = worstAndP99(rest);
  return {
    store,
    by,
    reportMs,
    bytes,
    healthWorst: during.worst,
    healthP99: during.p99,
    healthAsked: health.length + unanswered,
    unanswered,
    heapGrowth,
    restWorst: atRest.worst,
    restP99: atRest.p99,
  };
}

async function embeddedRows(): Promise<{ rows: Row[]; builtMs: number }> {
  const dataDir = mkdtempSync(join(tmpdir(), 'dialback-bench-report-'));
  const started = performance.now();
  const db = openDatabase({ dataDir });
  floodSqlite(db, SPEC);
  db.close();
  const builtMs = performance.now() - started;
  const config = configFor({ DATA_DIR: dataDir });
  const stores = openEmbeddedStores(config);
  const relay = createRelay({ config, log: logFor(config), stores });
  const listening = await listen(relay.server);
  try {
    return { rows: [await measure('embedded (SQLite)', listening.url, 'source'), await measure('embedded (SQLite)', listening.url, 'page')], builtMs };
  } finally {
    await listening.close();
    await relay.close();
    await stores.close();
    rmSync(dataDir, { recursive: true, force: true });
  }
}

async function redisRows(): Promise<{ rows: Row[]; builtMs: number }> {
  const server = await startRedisServer({ persistent: false });
  try {
    const config = configFor({ REDIS_URL: server.url, REDIS_PREFIX: 'bench:' });
    const connection = connectRedis(config.redis!, { log: quiet });
    if (!(await connection.waitReady(10_000))) throw new Error('the bench redis-server did not answer');
    const started = performance.now();
    await floodRedis(connection, SPEC);
    const builtMs = performance.now() - started;
    await connection.close();
    const relay = await redisRelay('redis', config, logFor(config));
    try {
      return { rows: [await measure('Redis (REDIS_URL)', relay.url, 'source'), await measure('Redis (REDIS_URL)', relay.url, 'page')], builtMs };
    } finally {
      await relay.close();
    }
  } finally {
    await server.stop();
  }
}

const load = loadavg();
const embedded = await embeddedRows();
const redis = await redisRows();
const ms = (n: number) => `${Math.round(n).toLocaleString('en')} ms`;
console.log(`A year of flood data: ${SPEC.days} days × ${SPEC.floodGroups.toLocaleString('en')} flood groups + 5 real sources, ${SPEC.leadsPerDay} leads a day`);
console.log(`(built in ${ms(embedded.builtMs)} on SQLite, ${ms(redis.builtMs)} on Redis; load average at start ${load.map((l) => l.toFixed(2)).join(' ')})`);
console.log('| store | by | 366-day report, best (median) of 3 | answer | /healthz meanwhile: worst, p99 (asked, failed) | at rest: worst, p99 | heap grown by |');
console.log('|---|---|---|---|---|---|---|');
for (const r of [...embedded.rows, ...redis.rows]) {
  const sorted = [...r.reportMs].sort((a, b) => a - b);
  console.log(
    `| ${r.store} | ${r.by} | ${ms(sorted[0]!)} (${ms(sorted[1]!)}) | ${(r.bytes / 1024).toFixed(1)} KiB | ${r.healthWorst.toFixed(1)} ms, ${r.healthP99.toFixed(1)} ms (${r.healthAsked.toLocaleString('en')}, ${r.unanswered}) | ${r.restWorst.toFixed(1)} ms, ${r.restP99.toFixed(1)} ms | ${(r.heapGrowth / 1048576).toFixed(1)} MB |`,
  );
}
