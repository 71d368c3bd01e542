// The relay bench's load generator: an undici Pool in a worker thread, bounded in requests and
// time, and the figures it gives (requests per second; A against B, alternated).
import { createRequire } from 'node:module';
import { Worker } from 'node:worker_threads';

export const CONNECTIONS = 32;
/**
 * Most requests of one accepted-path measurement: with two rounds the relay stays under the site
 * caps' counter range. The other measurements are bounded by time only, so relay and baseline
 * always run for the same SECONDS.
 */
export const MAX_ACCEPTED = 25_000;
export const SECONDS = 3;
export const ROUNDS = 2;

// ---------------------------------------------------------------- load generator (worker thread)

export interface LoadSpec {
  url: string;
  method: 'GET' | 'POST';
  path: string;
  headers: Record<string, string>;
  /**
   * POST bodies: `{"phone":"…"}` with a distinct number and a distinct client (X-Forwarded-For) per
   * request, and a fresh Idempotency-Key as the widget sends with every callback.
   */
  distinctPhones?: boolean;
  fixedBody?: string;
  /** With fixedBody: a distinct client (X-Forwarded-For) per request. */
  distinctClients?: boolean;
  expectStatus: number;
}

const workerSource = `
const { parentPort, workerData } = require('node:worker_threads');
const { Pool } = require(workerData.undici);
const spec = workerData.spec;
(async () => {
  const pool = new Pool(spec.url, { connections: workerData.connections, pipelining: 1 });
  const deadline = performance.now() + workerData.seconds * 1000;
  let sent = 0, done = 0, wrong = 0;
  const statuses = {};
  async function lane() {
    while (sent < workerData.max && performance.now() < deadline) {
      const n = sent++;
      const g = n + workerData.offset;
      // Distinct numbers spread over 12,000 prefixes (operator code + 3 digits), each used at most
      // 5 times, so the default per-prefix velocity is never the reason for an answer.
      const ops = ['50', '63', '66', '67', '68', '73', '93', '95', '96', '97', '98', '99'];
      const phone = '+380' + ops[g % 12] + String(100 + (Math.floor(g / 12) % 900)) + String(Math.floor(g / 10800)).padStart(4, '0');
      const body = spec.method === 'GET' ? undefined : spec.distinctPhones ? JSON.stringify({ phone }) : spec.fixedBody;
      const client = '10.' + ((g >> 16) & 255) + '.' + ((g >> 8) & 255) + '.' + (g & 255);
      const headers = spec.distinctPhones ? { ...spec.headers, 'x-forwarded-for': client, 'idempotency-key': 'bench-' + g } : spec.distinctClients ? { ...spec.headers, 'x-forwarded-for': client } : spec.headers;
      const res = await pool.request({ path: spec.path, method: spec.method, headers, body });
      await res.body.dump();
      statuses[res.statusCode] = (statuses[res.statusCode] || 0) + 1;
      if (res.statusCode !== spec.expectStatus) wrong++;
      done++;
    }
  }
  const started = performance.now();
  await Promise.all(Array.from({ length: workerData.connections }, lane));
  const seconds = (performance.now() - started) / 1000;
  await pool.close();
  parentPort.postMessage({ rps: done / seconds, done, sent, wrong, statuses });
})().catch((err) => parentPort.postMessage({ error: String(err && err.stack || err) }));
`;

const undiciPath = createRequire(import.meta.url).resolve('undici');

/**
 * Requests sent so far, so every round uses numbers and clients never seen before: a round of the
 * ever-new clients' flood after another must not find its addresses' networks already blocked.
 */
let offset = 0;

export function load(spec: LoadSpec): Promise<{ rps: number; done: number; wrong: number; statuses: Record<string, number> }> {
  return new Promise((resolve, reject) => {
    const max = spec.distinctPhones ? MAX_ACCEPTED : Number.MAX_SAFE_INTEGER;
    const worker = new Worker(workerSource, { eval: true, workerData: { spec, undici: undiciPath, connections: CONNECTIONS, seconds: SECONDS, max, offset } });
    if (spec.distinctPhones) offset += MAX_ACCEPTED;
    worker.once('message', (m: { error?: string; rps: number; done: number; sent: number; wrong: number; statuses: Record<string, number> }) => {
      void worker.terminate();
      if (spec.distinctClients) offset += m.sent;
      if (m.error) reject(new Error(m.error));
      else resolve(m);
    });
    worker.once('error', reject);
  });
}

/** One load, refusing a figure in which any answer was not the one expected. */
export async function checkedLoad(spec: LoadSpec) {
  const r = await load(spec);
  if (r.wrong > 0) throw new Error(`${spec.url}${spec.path}: ${r.wrong} unexpected answers ${JSON.stringify(r.statuses)}`);
  return r;
}

/** Requests per second, refusing a figure in which any answer was not the one expected. */
export async function rate(spec: LoadSpec): Promise<number> {
  return (await checkedLoad(spec)).rps;
}

/** Best of ROUNDS, alternating A and B so drift on a shared machine hits both alike. */
export async function compare(a: LoadSpec, b: LoadSpec) {
  let bestA = 0;
  let bestB = 0;
  for (let round = 0; round < ROUNDS; round++) {
    bestA = Math.max(bestA, await rate(a));
    bestB = Math.max(bestB, await rate(b));
  }
  return { a: bestA, b: bestB, ratio: bestA / bestB };
}
