import { createHash } from 'node:crypto';
import { loadConfig, secretsOf, type Config } from '../../server/src/config/index.ts';
import { createLogger } from '../../server/src/log/index.ts';
import { createRelay } from '../../server/src/relay.ts';
import { createMemoryLimitStore } from '../../server/src/limits/memory/limit-store.ts';
import type { LimitCheck } from '../../server/src/limits/limit-store.ts';
import { listen, type Listening } from '../support/listen.ts';
import { openEmbeddedStores, type RelayStores } from '../../server/src/app/relay-stores.ts';
import { mkdtempSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { compare, CONNECTIONS, MAX_ACCEPTED, ROUNDS, SECONDS, type LoadSpec } from './load.ts';
import { helloServer, ORIGIN, passthroughServer, requiredWork, upstreamServer } from './relay-servers.ts';
import { type BenchRelay, redisRelay, type SideBySideRow, sideBySide, startRedisDeployments, STORE_NAMES } from './store-relays.ts';

/** Rounds of the side-by-side rows: more than the others, as five servers share each round's drift. */
const SIDE_ROUNDS = 3;

// ---------------------------------------------------------------- memory (first, on a quiet heap)

function settle(): void {
  const gc = (globalThis as { gc?: () => void }).gc;
  for (let i = 0; i < 3; i++) gc?.();
}
const used = () => {
  const m = process.memoryUsage();
  return m.heapUsed + m.arrayBuffers;
};

async function memoryPerMillion(table: 'number' | 'client'): Promise<number> {
  settle();
  const before = used();
  const store = createMemoryLimitStore({ maxKeysPerTable: 1_000_000 });
  const rules: Record<typeof table, Omit<LimitCheck, 'key' | 'table'>> = {
    number: {
      counts: [
        { reason: 'number_cooldown', limit: 1, windowSec: 120 },
        { reason: 'number_daily', limit: 3, windowSec: 86_400 },
      ],
    },
    client: {
      counts: [
        { reason: 'client_rate', limit: 3, windowSec: 600 },
        { reason: 'client_daily', limit: 10, windowSec: 86_400 },
      ],
    },
  };
  const now = Date.now();
  for (let i = 0; i < 1_000_000; i++) {
    const key = createHash('sha256').update(`k${i}`).digest('hex').slice(0, 32);
    const decision = await store.consume([{ table, key, ...rules[table] }], now);
    if (!decision.ok) throw new Error(`key ${i} refused: ${decision.refusals[0]?.reason}`);
  }
  if (store.sizes()[table] !== 1_000_000) throw new Error('store lost keys');
  settle();
  const grown = used() - before;
  (globalThis as { keep?: unknown }).keep = store; // alive until measured
  (globalThis as { keep?: unknown }).keep = undefined;
  return grown;
}

// ---------------------------------------------------------------- run

async function main() {
  // On a shared machine the figures move with its load: printed beside them.
  const loadAtStart = loadavg();
  const memNumber = await memoryPerMillion('number');
  const memClient = await memoryPerMillion('client');

  const upstream = await listen(upstreamServer());
  const pass = passthroughServer(upstream.url);
  const passthrough = await listen(pass.server);
  const hello = await listen(helloServer());

  // Logging as an operator runs it: LOG_LEVEL=info and the default LOG_REPEAT_WINDOW_MS (a flood's
  // repeats of a cheap answer share a summary line per second), every line written, through the logger's
  // production path (pino.destination, asynchronous writes, see log/logger.ts). Production writes to
  // stdout, a pipe to the log collector; here the same writes go to /dev/null, so the figures leave
  // out only the collector's own work (and no terminal slows the relay down).
  const configFor = (env: Record<string, string>) =>
    loadConfig({
      PORT: '0',
      LOG_LEVEL: 'info',
      CALLTRACKING_BASE_URL: upstream.url,
      CALLTRACKING_AUTH_KEY: 'bench-auth-key-0000',
      CALLTRACKING_PROJECT_ID: '1',
      CALLBACK_CALLER: '380441112233',
      ALLOWED_ORIGINS: ORIGIN,
      HASH_SECRET: 'bench-hash-secret-000000',
      MAX_CONNECTIONS: '10000',
      ...env,
    });
  const logFor = (config: Config) => createLogger({ level: config.log.level, secrets: secretsOf(config), destination: '/dev/null' });
  // The relay as it runs by default: its state in the embedded store (SQLite in a fresh DATA_DIR).
  const embedded: RelayStores[] = [];
  const relayFor = (env: Record<string, string>) => {
    const config = configFor({ DATA_DIR: mkdtempSync(join(tmpdir(), 'dialback-bench-')), ...env });
    const stores = openEmbeddedStores(config);
    embedded.push(stores);
    return createRelay({ config, log: logFor(config), stores });
  };
  const references = await Promise.all(
    (
      [
        { phone: true, rest: true },
        { phone: true, rest: false },
        { phone: false, rest: true },
      ] as const
    ).map(async (work) => {
      const made = passthroughServer(upstream.url, requiredWork(configFor({}), logFor(configFor({})), work));
      return { ...made, listening: await listen(made.server) };
    }),
  );
  const [required, phoneOnly, restOnly] = references.map((r) => r.listening) as [Listening, Listening, Listening];
  // The accepted path runs the whole pipeline with default per-number and per-client limits: every
  // request is a new number from a new client behind a trusted proxy, so each creates limiter keys,
  // and carries its own Idempotency-Key. Only the site caps are raised, or they would trip as designed;
  // the clients are neighbours (256 to a /24), so the /24 limit and the surge defence are off too.
  const acceptingEnv = {
    TRUSTED_PROXIES: '127.0.0.1',
    SITE_HOURLY_CAP: '65000',
    SITE_DAILY_CAP: '65000',
    STATUS_CACHE_MS: '600000',
    LIMIT_NETWORK_IPV4_24_HOURLY: '0',
    LIMIT_NETWORK_IPV4_24_DAILY: '0',
    SURGE_CALLS: '0',
    SURGE_CAP_PERCENT: '0',
  };
  const open = relayFor(acceptingEnv);
  // Default limits: one client flooding one number is refused by the number's cooldown, and after
  // LIMIT_CLIENT_REFUSALS of those, as a client, body unread.
  const strict = relayFor({});
  // Default limits behind a trusted proxy, for a flood whose every request comes from a new client.
  const proxied = relayFor({ TRUSTED_PROXIES: '127.0.0.1' });
  const openL: Listening = await listen(open.server);
  const strictL: Listening = await listen(strict.server);
  const proxiedL: Listening = await listen(proxied.server);

  const json = { 'content-type': 'application/json', origin: ORIGIN };
  const results: Array<[string, string, string, string, string]> = [];
  const figures = (r: { a: number; b: number; ratio: number }) => [`${Math.round(r.a)} req/s`, `${Math.round(r.b)} req/s`, `${r.ratio.toFixed(2)}×`] as const;
  const row = (what: string, r: { a: number; b: number; ratio: number }, goal: number) =>
    results.push([what, ...figures(r), r.ratio >= goal ? `≥ ${goal}× ok` : `≥ ${goal}× MISSED`]);
  // The baselines every relay figure is divided by.
  const callbacksTo = (url: string): LoadSpec => ({ url, method: 'POST', path: '/api/callback', headers: json, distinctPhones: true, expectStatus: 202 });
  const viaPassthrough = callbacksTo(passthrough.url);
  const helloWorld: LoadSpec = { url: hello.url, method: 'GET', path: '/', headers: {}, expectStatus: 200 };
  /** One number's callback sent over and over to a relay that refuses it. */
  const flood = JSON.stringify({ phone: '+380501234567' });
  const refusedBy = (url: string, distinctClients = false): LoadSpec => ({
    url,
    method: 'POST',
    path: '/api/callback',
    headers: json,
    fixedBody: flood,
    distinctClients,
    expectStatus: 429,
  });

  row('POST /api/callback (accepted) vs undici passthrough', await compare(callbacksTo(openL.url), viaPassthrough), 0.75);
  results.push(['  reference: passthrough + only the required work', ...figures(await compare(callbacksTo(required.url), viaPassthrough)), 'ceiling for the row above']);
  results.push(['    of which the E.164 check alone', ...figures(await compare(callbacksTo(phoneOnly.url), viaPassthrough)), 'libphonenumber-js/max by itself']);
  results.push(['    of which the hashes and the log line alone', ...figures(await compare(callbacksTo(restOnly.url), viaPassthrough)), 'the rest by itself']);
  await fetch(`${openL.url}/api/status`); // fill the status cache
  row(
    'GET /api/status (cached) vs node:http hello-world',
    await compare({ url: openL.url, method: 'GET', path: '/api/status', headers: { origin: ORIGIN }, expectStatus: 200 }, helloWorld),
    0.75,
  );
  // The number's first call is accepted; every later one is refused, first by its cooldown, then
  // (the flood's steady state) as the client's.
  for (const url of [strictL.url, proxiedL.url]) await fetch(`${url}/api/callback`, { method: 'POST', headers: json, body: flood });
  row('POST /api/callback refused (429) vs hello-world', await compare(refusedBy(strictL.url), helloWorld), 0.5);
  row('  the same flood from ever-new clients (body read)', await compare(refusedBy(proxiedL.url, true), helloWorld), 0.35);

  // The same rows side by side on every store, in one run: the embedded relays above, and each
  // again with its state in one Redis, in Redis behind Sentinel, and in a Redis Cluster.
  const deployments = await startRedisDeployments();
  const onRedis = async (env: Record<string, string>) =>
    Promise.all(
      (['redis', 'sentinel', 'cluster'] as const).map((kind) => {
        const config = configFor({ ...env, ...deployments.envOf(kind) });
        return redisRelay(kind, config, logFor(config));
      }),
    );
  const embeddedRelay = (l: Listening): BenchRelay => ({ kind: 'embedded', url: l.url, close: async () => undefined });
  const openAll = [embeddedRelay(openL), ...(await onRedis(acceptingEnv))];
  const strictAll = [embeddedRelay(strictL), ...(await onRedis({}))];
  const proxiedAll = [embeddedRelay(proxiedL), ...(await onRedis({ TRUSTED_PROXIES: '127.0.0.1' }))];
  for (const r of openAll) await fetch(`${r.url}/api/status`);
  // Before each run the number's wait must cover the whole run, or a new client is accepted in it:
  // call it (accepted, or refused with what is left of its wait) until that is so.
  const firstCall = async (url: string) => {
    for (let tries = 0; tries < 3; tries++) {
      const answer = await fetch(`${url}/api/callback`, { method: 'POST', headers: json, body: flood });
      const left = ((await answer.json()) as { error?: { retryAfter?: number } }).error?.retryAfter ?? Number.POSITIVE_INFINITY;
      if (left > 2 * SECONDS + 5) return;
      await new Promise((r) => setTimeout(r, (left + 1) * 1000));
    }
  };
  results.push([`side by side, one run (best of ${SIDE_ROUNDS} rounds, each round the baseline then every store in turn):`, '', '', '', '']);
  const sideRows = (what: string, rows: SideBySideRow[], goal: number | null, note: string) => {
    results.push([`  ${what}`, '', '', '', note]);
    for (const r of rows) {
      const verdict = goal === null || r.kind === 'embedded' ? null : r.ratio >= goal ? `≥ ${goal}× ok` : `≥ ${goal}× MISSED`;
      const calls = r.callsPerRequest === undefined ? null : `${r.callsPerRequest.toFixed(1)} Redis calls/req`;
      const wrong = Object.entries(r.unexpected).map(([status, n]) => `${n} × ${status}`);
      results.push([`    ${STORE_NAMES[r.kind]}`, ...figures({ a: r.rps, b: r.baseline, ratio: r.ratio }), [verdict, calls, ...wrong].filter(Boolean).join(', ')]);
    }
  };
  const statusOf = (url: string): LoadSpec => ({ url, method: 'GET', path: '/api/status', headers: { origin: ORIGIN }, expectStatus: 200 });
  sideRows('GET /api/status (cached) vs hello-world', await sideBySide(openAll, statusOf, helloWorld, SIDE_ROUNDS), 0.75, '');
  sideRows('the flood from ever-new clients (body read) vs hello-world', await sideBySide(proxiedAll, (url) => refusedBy(url, true), helloWorld, SIDE_ROUNDS, firstCall), 0.35, '');
  sideRows(
    'POST /api/callback refused (429), one client, vs hello-world',
    await sideBySide(strictAll, (url) => refusedBy(url), helloWorld, SIDE_ROUNDS, firstCall),
    null,
    'blocked-client cache',
  );
  sideRows('POST /api/callback (accepted) vs undici passthrough', await sideBySide(openAll, callbacksTo, viaPassthrough, 2), null, 'reference');
  for (const r of [...openAll, ...strictAll, ...proxiedAll]) await r.close();
  await deployments.stop();

  const mb = (n: number) => `${(n / 1024 / 1024).toFixed(1)} MB`;
  const worstMem = Math.max(memNumber, memClient);
  results.push([
    'memory growth, 1,000,000 distinct limiter keys',
    `number ${mb(memNumber)}`,
    `client ${mb(memClient)}`,
    `${Math.round(worstMem / 1e6)} B/key`,
    worstMem <= 64 * 1024 * 1024 ? '≤ 64 MB ok' : '≤ 64 MB MISSED',
  ]);

  const header: [string, string, string, string, string] = ['measure', 'relay', 'baseline', 'ratio', 'goal'];
  const widths = header.map((h, i) => Math.max(h.length, ...results.map((r) => r[i]!.length)));
  const line = (cells: string[]) => `| ${cells.map((c, i) => c.padEnd(widths[i]!)).join(' | ')} |`;
  console.log(
    `\nRelay benchmark (${CONNECTIONS} connections, best of ${ROUNDS} × ${SECONDS} s (accepted path: at most ${MAX_ACCEPTED} requests), LOG_LEVEL=info to /dev/null, LOG_REPEAT_WINDOW_MS at its default, loopback, Node ${process.version}; load average ${loadAtStart.map((l) => l.toFixed(2)).join(' ')} at the start, ${loadavg()
      .map((l) => l.toFixed(2))
      .join(' ')} at the end)\n`,
  );
  console.log(line(header));
  console.log(`|${widths.map((w) => '-'.repeat(w + 2)).join('|')}|`);
  for (const r of results) console.log(line(r));

  await Promise.all([openL.close(), strictL.close(), proxiedL.close(), passthrough.close(), hello.close(), ...references.map((r) => r.listening.close())]);
  await Promise.all([open.close(), strict.close(), proxied.close(), pass.pool.close(), ...references.map((r) => r.pool.close())]);
  for (const stores of embedded) await stores.close();
  await upstream.close();
}

main().then(
  () => process.exit(0),
  (err) => {
    console.error(err);
    process.exit(1);
  },
);
