// A visitor's data erased on request (DELETE /owner/api/numbers/<E.164>) on an embedded store that
// holds a year of a flood's report data (a day's 5,000 open groups, every value with digits so the
// walk reads them all, and leads), while /healthz is asked every 5 ms: how long the DELETE takes,
// and the longest /healthz waited meanwhile. Beside it, what the erasure did before on the request
// path: a VACUUM of the same file (the event loop waits for all of it). `npm run bench erasure`;
// ERASURE_BENCH_DAYS (default 366) and ERASURE_BENCH_GROUPS (default 5,000 a day) size the data.
import { mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { loadConfig } from '../../server/src/config/index.ts';
import { createLogger } from '../../server/src/log/index.ts';
import { createRelay } from '../../server/src/relay.ts';
import { openEmbeddedStores } from '../../server/src/app/relay-stores.ts';
import { transaction } from '../../server/src/storage/sqlite/database.ts';
import { DATABASE_FILE, openDatabase } from '../../server/src/storage/sqlite/database.ts';
import { startSimulator } from '../../server/simulator/index.ts';
import { listen } from '../support/listen.ts';
import { Worker } from 'node:worker_threads';

const DAYS = Number(process.env.ERASURE_BENCH_DAYS ?? 366);
const GROUPS = Number(process.env.ERASURE_BENCH_GROUPS ?? 5_000);
const LEADS_PER_DAY = 100;
const NUMBER = '+380501234599';
const TOKEN = 'erasure-bench-owner-token-0123456789abcdef';

function build(dir: string): void {
  const db = openDatabase({ dataDir: dir });
  const open = db.prepare('INSERT INTO dialog_opens (day, source, medium, campaign, department, page, count) VALUES (?, ?, ?, ?, ?, ?, 1)');
  const lead = db.prepare("INSERT INTO lead_facts (callback_id, at_ms, requested_as, source, medium, campaign, department, page) VALUES (?, ?, 'now', ?, '', '', '', '/')");
  const today = Date.now();
  for (let d = 0; d < DAYS; d++) {
    const at = today - d * 86_400_000;
    const day = new Date(at).toISOString().slice(0, 10);
    transaction(db, () => {
      for (let g = 0; g < GROUPS; g++) open.run(day, `flood-${d}-${g}-${(g * 7919) % 100_000}`, 'cpc', `c${g % 97}`, '', `/p/${g}`);
      for (let l = 0; l < LEADS_PER_DAY; l++) lead.run(`lead-${d}-${l}`, at - l * 1000, `src-${l}`);
    });
  }
  // The visitor's own values, today: an open group's source and a lead's source hold the number.
  open.run(new Date(today).toISOString().slice(0, 10), 'tg 050 123 45 99', '', '', '', '/');
  lead.run('lead-with-number', today - 1000, '+380501234599');
  db.exec('PRAGMA wal_checkpoint(TRUNCATE)');
  db.close();
}

// The watcher runs in a worker thread: its own event loop keeps asking while the relay's is held, so
// a held loop shows as a slow answer (a watcher on the relay's loop would be held with it).
const WATCHER = `
const { parentPort, workerData } = require('node:worker_threads');
let longest = 0, asked = 0, running = true;
parentPort.on('message', () => { running = false; });
(async () => {
  while (running) {
    const start = performance.now();
    await fetch(workerData.url + '/healthz').then((r) => r.arrayBuffer());
    // The first answer opens the connection: not the relay's wait.
    if (asked > 0) longest = Math.max(longest, performance.now() - start);
    else parentPort.postMessage('ready');
    asked++;
    await new Promise((r) => setTimeout(r, workerData.everyMs));
  }
  parentPort.postMessage({ longest, asked });
})();
`;

/** Asks /healthz every `everyMs` from another thread until stopped (resolves once it has its connection); the longest answer, ms. */
async function healthWatch(url: string, everyMs = 5) {
  const worker = new Worker(WATCHER, { eval: true, workerData: { url, everyMs } });
  const answers: unknown[] = [];
  let heard: (() => void) | null = null;
  worker.on('message', (m) => {
    answers.push(m);
    heard?.();
  });
  const next = () => new Promise<unknown>((resolve) => (answers.length > 0 ? resolve(answers.shift()) : (heard = () => resolve(answers.shift()))));
  await next();
  return {
    async stop() {
      worker.postMessage('stop');
      const got = (await next()) as { longest: number; asked: number };
      await worker.terminate();
      return got;
    },
  };
}

async function main(): Promise<void> {
  const dir = mkdtempSync(join(tmpdir(), 'dialback-erasure-bench-'));
  const built = performance.now();
  build(dir);
  const mb = statSync(join(dir, DATABASE_FILE)).size / 1e6;
  console.log(`data: ${DAYS} days × ${GROUPS} open groups + ${DAYS * LEADS_PER_DAY} leads, ${mb.toFixed(0)} MB, built in ${((performance.now() - built) / 1000).toFixed(1)} s`);

  const sim = await startSimulator({ port: 0, host: '127.0.0.1' });
  const config = loadConfig(
    { PORT: '0', DATA_DIR: dir, HASH_SECRET: 'erasure-bench-hash-secret-0123456789', OWNER_TOKEN: TOKEN, ALLOWED_ORIGINS: 'https://shop.example', LOG_LEVEL: 'warn' },
    { baseUrl: sim.url, authKey: sim.authKey, projectId: sim.projectId, caller: sim.officeLine },
  );
  const stores = openEmbeddedStores(config);
  const relay = createRelay({ config, log: createLogger({ level: 'warn', write: () => {} }), stores });
  const listening = await listen(relay.server);

  const rows: Array<{ step: string; ms: number; healthzLongestMs: number; healthzAsked: number; note: string }> = [];
  let watch = await healthWatch(listening.url);
  let start = performance.now();
  const res = await fetch(`${listening.url}/owner/api/numbers/${encodeURIComponent(NUMBER)}`, { method: 'DELETE', headers: { 'x-owner-token': TOKEN } });
  const body = (await res.json()) as { erased?: { report?: unknown } };
  let ms = performance.now() - start;
  let health = await watch.stop();
  rows.push({
    step: 'DELETE /owner/api/numbers (now)',
    ms,
    healthzLongestMs: health.longest,
    healthzAsked: health.asked,
    note: `${res.status} report ${JSON.stringify(body.erased?.report)}`,
  });

  // What the erasure ran on the request path before: a VACUUM of the whole file, on the relay's connection.
  watch = await healthWatch(listening.url);
  await new Promise((r) => setTimeout(r, 20));
  start = performance.now();
  vacuum(dir);
  ms = performance.now() - start;
  await new Promise((r) => setTimeout(r, 50));
  health = await watch.stop();
  rows.push({
    step: 'VACUUM (the old DELETE)',
    ms,
    healthzLongestMs: health.longest,
    healthzAsked: health.asked,
    note: 'a second connection in this process: the event loop waits as it did',
  });

  console.table(rows.map((r) => ({ ...r, ms: Math.round(r.ms), healthzLongestMs: Math.round(r.healthzLongestMs) })));
  await listening.close();
  await relay.close();
  await stores.close();
  await sim.close();
  rmSync(dir, { recursive: true, force: true });
}

function vacuum(dir: string): void {
  const db = openDatabase({ dataDir: dir });
  db.exec('VACUUM');
  db.close();
}

await main();
