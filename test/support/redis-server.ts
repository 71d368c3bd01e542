// A private redis-server for one test file (or one benchmark): on a free loopback port, in its own
// temporary directory, never the machine's Redis on 6379. AOF is on (appendfsync always) so an
// outage test can kill the server and start it again on the same port with its data intact.
//
// Redis cannot listen on port 0 and report the port it got, so a free port is found by binding a
// net server to 127.0.0.1:0 and closing it; if another process takes it in between, redis-server
// exits at once with "Address already in use" and we try another.
import { killOnExit } from './child-processes.ts';
import { freePort } from './listen.ts';
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { createConnection } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

const BINARY = process.env.REDIS_SERVER_BIN ?? 'redis-server';
const START_TIMEOUT_MS = 10_000;
const ATTEMPTS = 5;

export interface RedisServer {
  /** redis://127.0.0.1:<port> */
  url: string;
  port: number;
  /** Stops the server and removes its directory (idempotent). */
  stop(): Promise<void>;
  /** Kills the server (SIGKILL: an outage, not a shutdown); its data stays in the AOF. */
  kill(): Promise<void>;
  /** Starts it again on the same port with the same data directory. */
  restart(): Promise<void>;
  /** Freezes the server (SIGSTOP): connections stay open, nothing is answered. */
  pause(): Promise<void>;
  /** Lets a paused server go on (SIGCONT). */
  resume(): Promise<void>;
}

export interface RedisServerOptions {
  /** Extra `--name value` arguments, e.g. { maxmemory: '64mb' }. */
  config?: Record<string, string>;
  /** false: no persistence at all (benchmarks); default true (AOF, fsync always). */
  persistent?: boolean;
}

/** Throws with what to do when redis-server is not installed: the tests need it, they never skip. */
function assertInstalled(): void {
  const probe = spawnSync(BINARY, ['--version'], { encoding: 'utf8' });
  if (probe.error || probe.status !== 0) {
    throw new Error(
      `redis-server was not found (${BINARY}): the Redis tests start their own server. Install it with \`apt-get install redis-server\` (or set REDIS_SERVER_BIN to a redis-server or valkey-server binary).`,
    );
  }
}

/** Resolves once the port accepts a PING; rejects when the process exits first or time runs out. */
export async function waitUntilServing(child: ChildProcess, port: number, output: () => string): Promise<void> {
  const deadline = Date.now() + START_TIMEOUT_MS;
  while (Date.now() < deadline) {
    if (child.exitCode !== null || child.signalCode !== null) throw new Error(`redis-server exited at start: ${output().trim()}`);
    if (await pings(port)) return;
    await new Promise((r) => setTimeout(r, 25));
  }
  throw new Error(`redis-server did not answer on port ${port} within ${START_TIMEOUT_MS} ms: ${output().trim()}`);
}

function pings(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = createConnection({ host: '127.0.0.1', port });
    let reply = '';
    socket.setTimeout(500, () => socket.destroy());
    socket.on('connect', () => socket.write('PING\r\n'));
    socket.on('data', (chunk) => {
      reply += chunk.toString();
      // +PONG when ready; -LOADING while it replays the AOF after a restart.
      if (reply.includes('\r\n')) {
        socket.destroy();
        resolve(reply.startsWith('+PONG'));
      }
    });
    socket.on('error', () => resolve(false));
    socket.on('close', () => resolve(false));
  });
}

function exited(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve();
  return new Promise((resolve) => child.once('exit', () => resolve()));
}

export async function startRedisServer(options: RedisServerOptions = {}): Promise<RedisServer> {
  assertInstalled();
  const dir = mkdtempSync(join(tmpdir(), 'dialback-redis-'));
  const persistent = options.persistent ?? true;
  let port = 0;
  let child: ChildProcess | null = null;
  let stopped = false;

  const args = (p: number) => [
    '--port',
    String(p),
    '--bind',
    '127.0.0.1',
    '--dir',
    dir,
    '--save',
    '',
    '--appendonly',
    persistent ? 'yes' : 'no',
    '--appendfsync',
    'always',
    // A replica's first sync starts at once, not after Redis's default 5 s (a wait for more replicas
    // to share one transfer): the Sentinel group and the REDIS_MIN_REPLICAS tests wait for it.
    '--repl-diskless-sync-delay',
    '0',
    '--daemonize',
    'no',
    '--protected-mode',
    'yes',
    '--logfile',
    '',
    '--loglevel',
    'warning',
    ...Object.entries(options.config ?? {}).flatMap(([k, v]) => [`--${k}`, v]),
  ];

  async function launch(p: number): Promise<void> {
    let output = '';
    const proc = spawn(BINARY, args(p), { stdio: ['ignore', 'pipe', 'pipe'] });
    proc.stdout?.on('data', (c) => (output += c));
    proc.stderr?.on('data', (c) => (output += c));
    child = proc;
    killOnExit(proc);
    try {
      await waitUntilServing(proc, p, () => output);
    } catch (err) {
      proc.kill('SIGKILL');
      await exited(proc);
      throw err;
    }
  }

  // A port picked this way can be taken by someone else before redis binds it: try a few.
  let lastError: unknown;
  for (let attempt = 0; attempt < ATTEMPTS; attempt++) {
    const candidate = await freePort();
    try {
      await launch(candidate);
      port = candidate;
      break;
    } catch (err) {
      lastError = err;
      if (!/in use/i.test(String((err as Error).message))) break;
    }
  }
  if (port === 0) {
    rmSync(dir, { recursive: true, force: true });
    throw lastError instanceof Error ? lastError : new Error(String(lastError));
  }

  async function kill(): Promise<void> {
    const proc = child;
    if (!proc) return;
    proc.kill('SIGKILL');
    await exited(proc);
  }

  return {
    url: `redis://127.0.0.1:${port}`,
    port,
    kill,
    async restart() {
      if (stopped) throw new Error('redis-server was stopped for good');
      await kill();
      // The same port: clients reconnect to the address they know.
      await launch(port);
    },
    async pause() {
      (child as ChildProcess | null)?.kill('SIGSTOP');
    },
    async resume() {
      (child as ChildProcess | null)?.kill('SIGCONT');
    },
    async stop() {
      if (stopped) return;
      stopped = true;
      const proc = child as ChildProcess | null;
      if (proc && proc.exitCode === null && proc.signalCode === null) {
        proc.kill('SIGCONT');
        proc.kill('SIGTERM');
        const timer = setTimeout(() => proc.kill('SIGKILL'), 3_000);
        await exited(proc);
        clearTimeout(timer);
      }
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
