// `npm run bench -- tracing`: what traces cost the relay. The same two rows as the relay bench
// (an accepted callback against an undici passthrough; a cached status against node:http's
// hello-world), with OpenTelemetry unset (nothing loaded or wrapped) and with it on, its spans sent
// over OTLP/HTTP (protobuf, batched) to a local receiver that takes and drops them. Each relay is
// built after its tracing state is set (a relay built with tracing off stays unwrapped), then the
// two take turns for TURNS rounds, each row the median of its rounds: a slow moment of a shared
// machine cannot land on one setting only.
import { createServer } from 'node:http';
import { mkdtempSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { loadConfig, secretsOf } from '../../server/src/config/index.ts';
import { createLogger } from '../../server/src/log/index.ts';
import { createRelay } from '../../server/src/relay.ts';
import { openEmbeddedStores, type RelayStores } from '../../server/src/app/relay-stores.ts';
import { startOpenTelemetry } from '../../server/src/tracing/otel.ts';
import { tracing, useTracer } from '../../server/src/tracing/tracing.ts';
import { listen } from '../support/listen.ts';
import { compare, type LoadSpec } from './load.ts';
import { helloServer, ORIGIN, passthroughServer, upstreamServer } from './relay-servers.ts';

const upstream = await listen(upstreamServer());
const pass = passthroughServer(upstream.url);
const passthrough = await listen(pass.server);
const hello = await listen(helloServer());
let spansReceived = 0;
const receiver = await listen(
  createServer((req, res) => {
    req.resume();
    req.on('end', () => {
      spansReceived++;
      res.writeHead(200, { 'content-type': 'application/x-protobuf' }).end();
    });
  }),
);

const stores: RelayStores[] = [];
function relay() {
  const config = loadConfig({
    PORT: '0',
    LOG_LEVEL: 'info',
    DATA_DIR: mkdtempSync(join(tmpdir(), 'dialback-bench-')),
    CALLTRACKING_BASE_URL: upstream.url,
    CALLTRACKING_AUTH_KEY: 'bench-auth-key-0000',
    CALLTRACKING_PROJECT_ID: '1',
    CALLBACK_CALLER: '380441112233',
    ALLOWED_ORIGINS: ORIGIN,
    HASH_SECRET: 'bench-hash-secret-000000',
    MAX_CONNECTIONS: '10000',
    TRUSTED_PROXIES: '127.0.0.1',
    SITE_HOURLY_CAP: '65000',
    SITE_DAILY_CAP: '65000',
    STATUS_CACHE_MS: '600000',
    LIMIT_NETWORK_IPV4_24_HOURLY: '0',
    LIMIT_NETWORK_IPV4_24_DAILY: '0',
    SURGE_CALLS: '0',
    SURGE_CAP_PERCENT: '0',
  });
  const store = openEmbeddedStores(config);
  stores.push(store);
  return createRelay({ config, log: createLogger({ level: config.log.level, secrets: secretsOf(config), destination: '/dev/null' }), stores: store });
}

const json = { 'content-type': 'application/json', origin: ORIGIN };
const callbacksTo = (url: string): LoadSpec => ({ url, method: 'POST', path: '/api/callback', headers: json, distinctPhones: true, expectStatus: 202 });
const statusOf = (url: string): LoadSpec => ({ url, method: 'GET', path: '/api/status', headers: { origin: ORIGIN }, expectStatus: 200 });
const helloWorld: LoadSpec = { url: hello.url, method: 'GET', path: '/', headers: {}, expectStatus: 200 };

const TURNS = 3;
type Figures = { a: number; b: number; ratio: number };

async function started() {
  const r = relay();
  const l = await listen(r.server);
  await fetch(`${l.url}/api/status`); // fill the status cache
  const close = async () => {
    await l.close();
    await r.close();
  };
  return { url: l.url, close };
}

async function measure(url: string) {
  return { accepted: await compare(callbacksTo(url), callbacksTo(passthrough.url)), status: await compare(statusOf(url), helloWorld) };
}

const load = loadavg();
const offRelay = await started();
process.env.OTEL_EXPORTER_OTLP_ENDPOINT = receiver.url;
useTracer(await startOpenTelemetry(process.env));
if (!tracing.enabled) throw new Error('tracing did not start');
const onRelay = await started();
const turns: Record<'off' | 'on', Array<Awaited<ReturnType<typeof measure>>>> = { off: [], on: [] };
for (let turn = 0; turn < TURNS; turn++) {
  turns.off.push(await measure(offRelay.url));
  turns.on.push(await measure(onRelay.url));
}
await offRelay.close();
await onRelay.close();
await tracing.shutdown();

/** The round whose ratio is the median of the rounds'. */
const median = (all: Figures[]) => [...all].sort((x, y) => x.ratio - y.ratio)[Math.floor(all.length / 2)]!;
const f = (x: Figures, each: Figures[]) =>
  `${Math.round(x.a)} req/s vs ${Math.round(x.b)} req/s: ${x.ratio.toFixed(2)}× (rounds ${each.map((r) => `${r.ratio.toFixed(2)}×`).join(', ')})`;
const rows: Array<[string, string]> = [];
for (const [setting, label] of [
  ['off', 'tracing off'],
  ['on', 'tracing on (OTLP/HTTP)'],
] as const) {
  for (const [key, what] of [
    ['accepted', 'POST /api/callback (accepted) vs passthrough'],
    ['status', 'GET /api/status (cached) vs hello-world'],
  ] as const) {
    const each = turns[setting].map((t) => t[key]);
    rows.push([`${what}, ${label}`, f(median(each), each)]);
  }
}

console.log(
  `\nTracing cost (median of ${TURNS} rounds taking turns; load average ${load.map((x) => x.toFixed(2)).join(' ')} at the start; ${spansReceived} OTLP exports received)\n`,
);
console.log('| measure | figures |');
console.log('|---|---|');
for (const [what, figures] of rows) console.log(`| ${what} | ${figures} |`);

await Promise.all([passthrough.close(), hello.close(), receiver.close(), upstream.close()]);
await pass.pool.close();
for (const s of stores) await s.close();
process.exit(0);
