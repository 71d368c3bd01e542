// The embedded store's own costs, memory vs SQLite, in operations per second (one process, no
// HTTP): the limit store's hot read (peek: every request of a flood), an accepted request's
// consume (committed before it returns), the refused flood from ever-new clients (peek ×2,
// acquire, refused consume, release, a strike written at the end of the turn), and the callback
// jobs' add, claim and file size per 1,000 jobs. `npm run bench store` runs it alone.
import { NO_PROGRESS } from '../../server/src/callback/job-store.ts';
import { createHash } from 'node:crypto';
import { mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { LimitCheck, LimitStore } from '../../server/src/limits/limit-store.ts';
import { createMemoryLimitStore } from '../../server/src/limits/memory/limit-store.ts';
import { DATABASE_FILE, openDatabase } from '../../server/src/storage/sqlite/database.ts';
import { createSqliteLimitStore } from '../../server/src/limits/sqlite/limit-store.ts';
import { startCheckpointer } from '../../server/src/storage/sqlite/checkpointer.ts';
import { createSqliteCallbackJobStore } from '../../server/src/callback/stores/sqlite-job-store.ts';
import { createSqliteWebhookOutbox } from '../../server/src/webhooks/sqlite-outbox.ts';
import { buildLeadEvent } from '../../server/src/webhooks/events.ts';

const SECONDS = Number(process.env.STORE_BENCH_SECONDS ?? 1.5);
const hex = (s: string) => createHash('sha256').update(s).digest('hex').slice(0, 32);
const T0 = Date.now();
const DAY = 86_400;
const rules = {
  number: [
    { reason: 'number_cooldown', limit: 1, windowSec: 120 },
    { reason: 'number_daily', limit: 3, windowSec: DAY },
  ],
  client: [
    { reason: 'client_rate', limit: 3, windowSec: 600 },
    { reason: 'client_daily', limit: 10, windowSec: DAY },
  ],
  prefix: [{ reason: 'prefix_rate', limit: 5, windowSec: 600 }],
  strikes: [{ reason: 'client_refusals', limit: 20, windowSec: 600 }],
  site: [
    { reason: 'site_hourly_cap', limit: 65_000, windowSec: 3600 },
    { reason: 'site_daily_cap', limit: 65_000, windowSec: DAY },
  ],
} satisfies Record<string, LimitCheck['counts']>;

/** The limiter's five-table plan for number `n` from client `c`. */
const plan = (n: number, c: number): LimitCheck[] => [
  { table: 'number', key: hex(`n${n}`), counts: rules.number },
  { table: 'client', key: hex(`c${c}`), counts: rules.client },
  { table: 'client_numbers', key: hex(`cn${c}`), distinct: { reason: 'client_numbers', limit: 2, windowSec: DAY, member: hex(`n${n}`) } },
  { table: 'prefix', key: hex(`p${Math.floor(n / 5)}`), counts: rules.prefix },
  // A site per 50,000 requests: the bench measures the store, not the caps.
  { table: 'site', key: hex(`site${Math.floor(n / 50_000)}`), counts: rules.site },
];

/** Runs `op` in batches of `batch` per event-loop turn (as requests arrive) for SECONDS; ops/s. */
async function rate(op: (i: number) => Promise<unknown>, batch = 64): Promise<number> {
  let i = 0;
  const start = performance.now();
  const end = start + SECONDS * 1000;
  while (performance.now() < end) {
    const turn: Promise<unknown>[] = [];
    for (let b = 0; b < batch; b++) turn.push(op(i++));
    await Promise.all(turn);
    await new Promise((r) => setImmediate(r));
  }
  return i / ((performance.now() - start) / 1000);
}

const dirs: string[] = [];
function freshDir(): string {
  const dir = mkdtempSync(join(tmpdir(), 'dialback-bench-'));
  dirs.push(dir);
  return dir;
}
const fileSize = (dir: string) => ['', '-wal'].reduce((n, s) => n + (statSync(join(dir, DATABASE_FILE + s), { throwIfNoEntry: false })?.size ?? 0), 0);

async function limitFigures(name: string, store: LimitStore) {
  // 10,000 clients with history, then peeks of them.
  for (let c = 0; c < 10_000; c++) await store.consume(plan(c, c), T0);
  const peek = await rate((i) => store.peek({ table: 'client', key: hex(`c${i % 10_000}`), counts: rules.client }, T0 + 1000));
  let n = 1_000_000;
  const accept = async () => {
    const k = n++;
    const d = await store.consume(plan(k, k), T0 + 2000);
    if (!d.ok) throw new Error(`refused: ${JSON.stringify(d.refusals)}`);
  };
  // One at a time (each waits for its own commit), then 32 per turn (sharing one commit).
  const consume = await rate(accept, 1);
  const consumeConcurrent = await rate(accept, 32);
  // The flood from ever-new clients at one number on cooldown.
  await store.consume(plan(42, 42), T0 + 3000);
  let c = 5_000_000;
  const flood = await rate(async () => {
    const client = hex(`c${c++}`);
    await store.peek({ table: 'client', key: client, counts: rules.client }, T0 + 4000);
    await store.peek({ table: 'client_refusals', key: client, counts: rules.strikes }, T0 + 4000);
    const numberKey = hex('n42');
    // As the limiter does: a number already in flight is a refusal too (requests of a turn interleave).
    if (await store.acquire(numberKey, 1, 21_000, T0 + 4000)) {
      const d = await store.consume(plan(42, c), T0 + 4000);
      await store.release(numberKey);
      if (d.ok) throw new Error('expected a refusal');
    }
    await store.consume([{ table: 'client_refusals', key: client, counts: rules.strikes }], T0 + 4000);
  });
  return [name, peek, consume, consumeConcurrent, flood];
}

async function main() {
  const rows: (string | number)[][] = [];
  // A pass not counted first: the row measured first paid for the JIT's warm-up (memory's peeks
  // came out at a quarter of SQLite's, whose answers come from the same memory store).
  await limitFigures('warm-up', createMemoryLimitStore({ maxKeysPerTable: 1_000_000, startMs: T0 }));
  rows.push(await limitFigures('memory', createMemoryLimitStore({ maxKeysPerTable: 1_000_000, startMs: T0 })));
  const limitDir = freshDir();
  const db = openDatabase({ dataDir: limitDir });
  const checkpointer = startCheckpointer(db, join(limitDir, DATABASE_FILE));
  const sqlite = createSqliteLimitStore({ db, maxKeysPerTable: 1_000_000, batchedTables: ['client_refusals'], now: () => T0 });
  rows.push(await limitFigures('sqlite', sqlite));
  sqlite.close();
  await checkpointer.stop();
  db.close();

  // Startup: replaying what the SQLite store wrote above.
  const replayDb = openDatabase({ dataDir: dirs[0]! });
  const events = (replayDb.prepare('SELECT COUNT(*) AS n FROM limit_events').get() as { n: number }).n;
  const replayStart = performance.now();
  const reopened = createSqliteLimitStore({ db: replayDb, maxKeysPerTable: 1_000_000, now: () => T0 });
  for (const check of plan(0, 0)) await reopened.peek({ ...check }, T0 + 5000);
  await reopened.peek({ table: 'client_refusals', key: hex('x'), counts: rules.strikes }, T0 + 5000);
  const replayMs = performance.now() - replayStart;
  replayDb.close();

  console.log('| limit store | peek/s | accepted consume/s, one at a time | accepted consume/s, 32 per turn | new-client flood, refusals/s |');
  console.log('|---|---|---|---|---|');
  for (const [name, ...figures] of rows) console.log(`| ${name} | ${figures.map((f) => Math.round(f as number).toLocaleString('en')).join(' | ')} |`);
  console.log(`\nreplay at startup: ${events.toLocaleString('en')} events in ${Math.round(replayMs)} ms`);

  // Callback jobs and the outbox: add rate, claim rate, bytes per 1,000 jobs (with one event each).
  const jobsDir = freshDir();
  const jobsDb = openDatabase({ dataDir: jobsDir });
  const jobsCheckpointer = startCheckpointer(jobsDb, join(jobsDir, DATABASE_FILE));
  const jobs = createSqliteCallbackJobStore({ db: jobsDb });
  const outbox = createSqliteWebhookOutbox({ db: jobsDb });
  const emptySize = fileSize(jobsDir);
  const JOBS = 5_000;
  const addStart = performance.now();
  for (let i = 0; i < JOBS; i++) {
    const e164 = `+38050${String(i).padStart(7, '0')}`;
    const request = {
      e164,
      attribution: { utmSource: 'google', utmMedium: 'cpc', utmCampaign: 'spring-sale', clientId: '1234567890.1700000000' },
      clientIp: '203.0.113.9',
      userAgent: 'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0 Safari/537.36',
      origin: 'https://shop.example.com',
      pageUrl: 'https://shop.example.com/catalog/item-123?utm_source=google&utm_medium=cpc',
      locale: 'uk',
    };
    const numberHash = hex(e164) + hex(`${e164}x`);
    await jobs.add(
      {
        callbackId: `cb-${i}`,
        requestedAs: 'scheduled',
        stage: 'scheduled',
        dueAt: T0 + i,
        progress: { ...NO_PROGRESS, scheduledFor: T0 + i },
        request,
        numberHash,
        maskedNumber: '+380 50 *** **67',
        cancelToken: `token-${i}`,
      },
      T0,
    );
    await outbox.enqueue(
      buildLeadEvent({
        type: 'callback.scheduled',
        callbackId: `cb-${i}`,
        occurredAt: T0,
        e164,
        maskedNumber: '+380 50 *** **67',
        numberHash,
        attribution: request.attribution,
        pageUrl: request.pageUrl,
        origin: request.origin,
        locale: 'uk',
        requestedAt: T0,
        scheduledFor: T0 + i,
      }),
      T0,
    );
  }
  const addPerSec = JOBS / ((performance.now() - addStart) / 1000);
  await jobsCheckpointer.stop();
  jobsDb.exec('PRAGMA wal_checkpoint(TRUNCATE)');
  const perThousand = (fileSize(jobsDir) - emptySize) / (JOBS / 1000);
  const claimStart = performance.now();
  let claimed = 0;
  for (;;) {
    const batch = await jobs.claimDue('bench', T0 + JOBS, 30_000, 16);
    if (batch.length === 0) break;
    claimed += batch.length;
  }
  const claimPerSec = claimed / ((performance.now() - claimStart) / 1000);
  jobsDb.close();
  console.log(
    `\ncallback jobs: add + enqueue its event ${Math.round(addPerSec).toLocaleString('en')}/s (each committed); claim ${Math.round(claimPerSec).toLocaleString('en')} jobs/s (batches of 16)`,
  );
  console.log(`file size per 1,000 jobs with one webhook event each: ${Math.round(perThousand / 1024)} KiB`);
}

await main();
for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
