// The whole system for a test: the simulator and the relay, each on 127.0.0.1 port 0, wired as
// `npm start` wires them. `env` takes the relay's environment variables (as strings, exactly as an
// operator would write them), so tests exercise config parsing too.
import { afterEach } from 'vitest';
import { loadConfig, secretsOf, type Config } from '../../server/src/config/index.ts';
import { createLogger, type Logger } from '../../server/src/log/index.ts';
import { createRelay, type Relay, type RelayDeps } from '../../server/src/relay.ts';
import { startSimulator, type SimulatorOptions } from '../../server/simulator/index.ts';
import { listen } from './listen.ts';
import { answerOf, type Answer } from './post-callback.ts';
import type { Timers } from '../../server/src/lib/timers.ts';
import { memoryStores, openEmbeddedStores } from '../../server/src/app/relay-stores.ts';
import { tempDir } from './temp-dirs.ts';

export interface System {
  relayUrl: string;
  relay: Relay;
  config: Config;
  sim: Awaited<ReturnType<typeof startSimulator>>;
  /** Every log line the relay wrote, parsed. */
  logs: Array<Record<string, unknown>>;
  /** The raw log text, for searching for secrets. */
  rawLogs: string[];
  close(): Promise<void>;
}

export interface SystemOptions {
  simulator?: SimulatorOptions;
  /** The relay's clock (limits, idempotency, office hours), for tests that move time on. */
  now?: () => Date;
  /**
   * Where the relay keeps its state: the embedded SQLite store in a fresh DATA_DIR (the default, as
   * in production), or memory. DATA_DIR in `env` picks the directory (to restart on the same file);
   * without it the relay gets one of its own, removed after the test that started it (temp-dirs.ts).
   */
  store?: 'embedded' | 'memory';
  /** The relay's background timers (log windows, webhook retries, held calls), for tests that move them on (manual-timers.ts). */
  timers?: Timers;
  /** The held calls' runner (interval, step hooks): tests of held calls drive `relay.runner.runOnce()` on their own clock. */
  runner?: RelayDeps['runner'];
}

/** Simulator timing for tests that need a call placed, not watched: every call ends within milliseconds. */
export const QUICK_CALLS = { agentAnswerMs: 10, visitorRingMs: 10, talkMs: 10 } as const;

/** What reached the service's callback method (JSON-RPC at /a/v2), oldest first. */
export const callbackCalls = (s: System) => s.sim.requests.filter((r) => r.path === '/a/v2');

/** A refused request's public error, with its wait as the Retry-After header and as the body says it. */
export async function errorOf(res: Response | Answer) {
  const answer = await answerOf(res);
  const { error } = answer.json as { error: { code: string; retryAfter?: number } };
  return { status: answer.status, code: error.code, retryAfter: Number(answer.headers.get('retry-after')), bodyRetryAfter: error.retryAfter };
}

export async function startSystem(env: Record<string, string> = {}, options: SystemOptions = {}): Promise<System> {
  const sim = await startSimulator({ ...options.simulator, port: 0, host: '127.0.0.1' });
  const rawLogs: string[] = [];
  const logs: Array<Record<string, unknown>> = [];
  let config: Config;
  let log: Logger;
  try {
    config = loadConfig(
      { PORT: '0', LOG_LEVEL: 'debug', STATUS_CACHE_MS: '0', ...env, DATA_DIR: env.DATA_DIR ?? tempDir('data') },
      { baseUrl: sim.url, authKey: sim.authKey, projectId: sim.projectId, caller: sim.officeLine },
    );
    log = createLogger({
      level: config.log.level,
      secrets: secretsOf(config),
      write: (line) => {
        rawLogs.push(line);
        logs.push(JSON.parse(line) as Record<string, unknown>);
      },
    });
  } catch (err) {
    await sim.close();
    throw err;
  }
  const nowMs = options.now && (() => options.now!().getTime());
  const stores = options.store === 'memory' ? memoryStores(config, nowMs) : openEmbeddedStores(config, nowMs);
  const relay = createRelay({
    config,
    log,
    stores,
    ...(options.now && { now: options.now }),
    ...(options.timers && { timers: options.timers }),
    ...(options.runner && { runner: options.runner }),
  });
  const listening = await listen(relay.server);
  relay.start();
  return {
    relayUrl: listening.url,
    relay,
    config,
    sim,
    logs,
    rawLogs,
    async close() {
      await listening.close();
      await relay.close();
      await stores.close();
      await sim.close();
    },
  };
}

/**
 * A fresh system for each test that asks for one (limits and idempotency state start empty), closed
 * after the test. `defaults` are the file's environment; `start(env)` adds a test's own settings.
 */
export function systemPerTest(defaults: Record<string, string>, options: SystemOptions = {}): (env?: Record<string, string>) => Promise<System> {
  let current: System | undefined;
  afterEach(async () => {
    await current?.close();
    current = undefined;
  });
  return async (env = {}) => {
    await current?.close();
    current = await startSystem({ ...defaults, ...env }, options);
    return current;
  };
}
