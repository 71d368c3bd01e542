// The only file that reads the environment and listens. With CALLTRACKING_BASE_URL unset it first
// starts the embedded simulator on a free port and points the relay at it (demo mode), so
// `npm start` runs the whole system on a fresh machine with no account and no network. With
// `--check` it runs the pre-flight on the same settings instead, and exits.
import { ConfigError, loadConfig, secretsOf, type SimulatorDefaults } from './config/index.ts';
import { createLogger } from './log/index.ts';
import { createRelay } from './relay.ts';
import { keptHashSecret } from './storage/hash-secret.ts';
import { assertOneSchemaVersion } from './storage/redis/schema-guard.ts';
import { tightenKeptFiles } from './storage/private-files.ts';
import { DATABASE_FILE } from './storage/sqlite/database.ts';
import { openEmbeddedStores, type RelayStores } from './app/relay-stores.ts';
import { openRedisStores } from './app/redis-stores.ts';
import { tracesWanted, tracing, useTracer } from './tracing/tracing.ts';
import type { Simulator } from '../simulator/index.ts';

async function main(): Promise<void> {
  const env = process.env;
  // The simulator is code for demos and tests: a production relay (base URL, project and caller all
  // set) never loads it. Without a base URL it is started here (demo mode); with a base URL but no
  // project or caller, its defaults fill in, which is only useful against a standalone simulator.
  const external = Boolean(env.CALLTRACKING_BASE_URL);
  const needsSimulator = !external || !env.CALLTRACKING_PROJECT_ID || !env.CALLBACK_CALLER;
  const sim = needsSimulator ? await import('../simulator/index.ts') : null;
  let simulator: (Simulator & { url: string }) | null = null;
  let simDefaults: SimulatorDefaults | undefined;
  if (sim && !external) {
    simulator = await sim.startSimulator({ port: 0, host: '127.0.0.1' });
    simDefaults = { baseUrl: simulator.url, authKey: simulator.authKey, projectId: simulator.projectId, caller: simulator.officeLine };
  }
  const fallbacks = sim ? { projectId: sim.SIMULATOR_DEFAULTS.projectId, caller: sim.SIMULATOR_DEFAULTS.officeLine } : undefined;

  let config = loadConfig(env, simDefaults, fallbacks);
  // --check: the pre-flight instead of the relay (preflight/run.ts); nothing is opened for writing.
  if (process.argv.includes('--check')) {
    const { runPreflight } = await import('./preflight/run.ts');
    const code = await runPreflight(config, (line) => process.stdout.write(`${line}\n`));
    await simulator?.close();
    process.exit(code);
  }
  // Without HASH_SECRET the secret is kept in a file (HASH_SECRET_FILE, DATA_DIR/hash-secret by
  // default), so hashes (and limits, and the never-call list) survive restarts.
  const kept = config.hash.generated ? keptHashSecret({ dataDir: config.store.dataDir, file: config.hash.file, create: config.redis === null }) : null;
  if (kept) config = { ...config, hash: { ...config.hash, secret: kept.secret, generated: false } };
  const log = createLogger({ level: config.log.level, secrets: secretsOf(config) });
  // OpenTelemetry is loaded only when its own variables ask for traces (tracing/tracing.ts).
  if (tracesWanted(env)) {
    const { startOpenTelemetry } = await import('./tracing/otel.ts');
    useTracer(await startOpenTelemetry(env));
    log.info('traces sent with OpenTelemetry', { exporter: env.OTEL_TRACES_EXPORTER ?? 'otlp', protocol: env.OTEL_EXPORTER_OTLP_PROTOCOL ?? 'http/protobuf' });
  }
  for (const warning of config.warnings) log.warn(warning);
  if (kept?.movedFrom) log.info('HASH_SECRET moved out of DATA_DIR', { from: kept.movedFrom, to: kept.path });
  if (kept?.inDataDir) {
    log.warn(
      'HASH_SECRET is kept in DATA_DIR: a backup of DATA_DIR holds the keyed hashes of numbers and addresses together with their key, and with the key a number is found again from its hash by trying every number; set HASH_SECRET_FILE to a path outside DATA_DIR (the secret is moved there) or HASH_SECRET',
      { file: kept.path },
    );
  }
  // Only the relay's user may read what it keeps; an older relay made DATA_DIR 0755 and its files 0644.
  const keptFiles = { dataDir: config.redis ? null : config.store.dataDir, databaseFile: DATABASE_FILE, files: [kept?.path ?? null, config.consent.logPath] };
  for (const t of tightenKeptFiles(keptFiles)) {
    if (t.failed) log.warn('file readable by other users and not ours to change: make it 0600 (a directory 0700)', { ...t });
    else log.warn('file made readable by the relay only', { ...t });
  }

  let stores: RelayStores;
  if (config.redis) {
    // Shared by every relay with the same REDIS_URL and REDIS_PREFIX. The relay listens even while
    // Redis is unreachable: /readyz says not ready, callbacks answer 503, and it recovers by itself.
    // Not beside a relay of another Redis schema version (storage/redis/schema-guard.ts).
    if (!(await assertOneSchemaVersion(config.redis))) log.warn('Redis could not be asked at start whether a relay of another version runs on it');
    const redis = openRedisStores(config, log);
    stores = redis;
    const up = await redis.connection.waitReady(config.redis.connectTimeoutMs);
    log.info('state kept in Redis', { prefix: config.redis.prefix, connected: up });
  } else {
    stores = openEmbeddedStores(config);
    log.info('state kept in the embedded store', { dataDir: config.store.dataDir });
  }
  const relay = createRelay({ config, log, stores });
  await new Promise<void>((resolve, reject) => {
    relay.server.once('error', reject);
    relay.server.listen(config.http.port, config.http.host, resolve);
  });
  relay.start();
  const address = relay.server.address();
  const port = typeof address === 'object' && address ? address.port : config.http.port;
  log.info('relay listening', { host: config.http.host, port, publicUrl: config.http.publicUrl, demo: config.service.demo, simulator: simulator?.url ?? null });
  if (config.service.demo) {
    process.stdout.write(
      `\n  Dialback demo:  http://${config.http.host}:${port}/\n  Owner view:     http://${config.http.host}:${port}/owner\n${simulator ? `  Simulator:      ${simulator.url} (Auth-key ${simulator.authKey}, project ${simulator.projectId})\n` : ''}\n`,
    );
  }

  let stopping = false;
  const stop = async (signal: string) => {
    if (stopping) return;
    stopping = true;
    log.info('shutting down: finishing in-flight requests', { signal });
    const force = setTimeout(() => {
      log.warn('shutdown took too long; exiting');
      process.exit(1);
    }, 20_000);
    force.unref();
    await relay.close();
    await stores.close();
    await simulator?.close();
    await tracing.shutdown(); // the last spans are sent before the process ends
    await log.flush(); // log lines are written asynchronously: the last ones must not be lost
    process.exit(0);
  };
  process.on('SIGTERM', () => void stop('SIGTERM'));
  process.on('SIGINT', () => void stop('SIGINT'));
}

main().catch((err) => {
  if (err instanceof ConfigError) {
    process.stderr.write(`dialback: invalid configuration: ${err.message}\n`);
  } else {
    process.stderr.write(`dialback: failed to start: ${err instanceof Error ? err.message : String(err)}\n`);
  }
  process.exit(1);
});
