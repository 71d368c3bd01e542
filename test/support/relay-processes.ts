// Relays as an operator runs them — `node server/src/main.ts`, separate processes, real environment
// variables — sharing one Redis and one standalone simulator. Each relay's port is read from its
// 'relay listening' JSON log line; SIGKILL is a crash, SIGTERM a shutdown.
import { spawn, type ChildProcess } from 'node:child_process';
import { COMPILE_CACHE_ENV, killOnExit } from './child-processes.ts';
import { tempDir } from './temp-dirs.ts';

export interface RelayProcess {
  url: string;
  child: ChildProcess;
  /** Its DATA_DIR: the one given in its environment, or one of its own (removed after the test, temp-dirs.ts). */
  dataDir: string;
  /** Everything it wrote on stdout so far. */
  out(): string;
  /** Its JSON log lines so far. */
  lines(): Array<Record<string, unknown> & { msg?: string; level?: string | number }>;
  kill(signal?: NodeJS.Signals): Promise<void>;
}

/**
 * On Redis a relay does its write check every 100 ms (REDIS_CHECK_MS) rather than every second: a
 * relay started beside others of its prefix first watches their check key for twice that and half a
 * second (storage/redis/schema-guard.ts), 0.7 s instead of 2.5 s; and it is ready sooner after an
 * outage. A test that needs a running relay seen (a refusal) gives the watcher the default 1 s: on a
 * loaded machine a relay may write nothing for 0.7 s.
 */
export const QUICK_CHECKS = { REDIS_CHECK_MS: '100' };

/** `cwd`: another copy of the relay (a previous version's files); this one by default. `env` may set REDIS_CHECK_MS (QUICK_CHECKS by default). */
export async function startRelay(env: Record<string, string>, options: { cwd?: string } = {}): Promise<RelayProcess> {
  const dataDir = env.DATA_DIR ?? tempDir('data');
  const child = spawn(process.execPath, ['server/src/main.ts'], {
    ...(options.cwd && { cwd: options.cwd }),
    // Another copy's modules are not cached: each copy is at a new path, and the cache is never pruned.
    env: { PATH: process.env.PATH, HOME: process.env.HOME, ...(!options.cwd && COMPILE_CACHE_ENV), PORT: '0', HOST: '127.0.0.1', ...QUICK_CHECKS, ...env, DATA_DIR: dataDir },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  killOnExit(child);
  let stdout = '';
  let stderr = '';
  child.stdout!.on('data', (d) => (stdout += d));
  child.stderr!.on('data', (d) => (stderr += d));
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const lines = () =>
    stdout
      .split('\n')
      .filter((l) => l.startsWith('{'))
      .map((l) => JSON.parse(l) as Record<string, unknown> & { msg?: string });
  // Generous: on a loaded machine (CI, other suites in parallel) starting node alone can take seconds.
  const deadline = Date.now() + 60_000;
  let port: number | undefined;
  while (port === undefined) {
    port = lines().find((l) => l.msg === 'relay listening')?.port as number | undefined;
    if (port !== undefined) break;
    if (child.exitCode !== null) throw new Error(`relay exited at start: ${stderr}${stdout}`);
    if (Date.now() > deadline) throw new Error(`relay did not listen within 60 s: ${stderr}${stdout}`);
    await new Promise((r) => setTimeout(r, 25));
  }
  return {
    url: `http://127.0.0.1:${port}`,
    child,
    dataDir,
    out: () => stdout,
    lines,
    async kill(signal = 'SIGKILL') {
      if (child.exitCode === null && child.signalCode === null) child.kill(signal);
      await exited;
    },
  };
}

export async function waitUntil(probe: () => boolean | Promise<boolean>, what: string, ms = 15_000): Promise<void> {
  const deadline = Date.now() + ms;
  while (!(await probe())) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

/** Until `relay` answers /readyz with 200: connected, and its write check written (so a watcher of the check key sees it run). */
export const untilReady = (relay: { url: string }, what = 'a relay ready', ms = 20_000): Promise<void> =>
  waitUntil(async () => (await fetch(`${relay.url}/readyz`)).status === 200, what, ms);

/** What a relay needs to talk to `service` (a simulator) for the test site, sharing `redis` settings. */
export function relayEnv(service: { url: string; authKey: string; projectId: string; officeLine: string }, redis: Record<string, string>): Record<string, string> {
  return {
    ...redis,
    HASH_SECRET: 'multi-relay-hash-secret-0123456789abcdef',
    CALLTRACKING_BASE_URL: service.url,
    CALLTRACKING_AUTH_KEY: service.authKey,
    CALLTRACKING_PROJECT_ID: service.projectId,
    CALLBACK_CALLER: service.officeLine,
    ALLOWED_ORIGINS: 'https://shop.example',
    TRUSTED_PROXIES: '127.0.0.1',
    LOG_LEVEL: 'info',
    // These tests are about the shared store: the network and surge limits stay out of the way.
    LIMIT_NETWORK_IPV4_24_HOURLY: '0',
    LIMIT_NETWORK_IPV4_24_DAILY: '0',
    SURGE_CALLS: '0',
  };
}

/** A distinct client address per i (distinct /24s), and a distinct number per i. */
export const clientIp = (i: number) => `198.${18 + (Math.floor(i / 65_000) % 2)}.${Math.floor(i / 250) % 250}.${(i % 250) + 1}`;
export const phoneOf = (i: number) => `050 ${String(1_000_000 + i).padStart(7, '0')}`;
