// Redis as operators run it with Sentinel: a primary (AOF, so a killed one can come back with its
// data), one replica, and three redis-sentinel processes watching them, each on a free loopback
// port in its own directory. Short timings so a failover takes a few seconds, not half a minute.
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createClient } from 'redis';
import { killOnExit } from './child-processes.ts';
import { freePort } from './listen.ts';
import { startRedisServer, waitUntilServing, type RedisServer } from './redis-server.ts';

export const MASTER_NAME = 'dialback';
/** Sentinel's settings: a primary silent this long is down; a failover retried after this. */
export const DOWN_AFTER_MS = 1_000;
export const FAILOVER_TIMEOUT_MS = 3_000;

export interface SentinelGroup {
  primary: RedisServer;
  replica: RedisServer;
  sentinelPorts: number[];
  /** REDIS_SENTINELS: the sentinels as host:port, comma-separated. */
  sentinels: string;
  /** The current primary's port, as the sentinels tell it. */
  masterPort(): Promise<number>;
  stop(): Promise<void>;
}

async function startSentinel(primaryPort: number, dir: string): Promise<{ port: number; proc: ChildProcess }> {
  for (let attempt = 0; ; attempt++) {
    const port = await freePort();
    const conf = join(dir, `sentinel-${port}.conf`);
    writeFileSync(
      conf,
      [
        `port ${port}`,
        'bind 127.0.0.1',
        'daemonize no',
        `dir ${dir}`,
        'logfile ""',
        `sentinel monitor ${MASTER_NAME} 127.0.0.1 ${primaryPort} 2`,
        `sentinel down-after-milliseconds ${MASTER_NAME} ${DOWN_AFTER_MS}`,
        `sentinel failover-timeout ${MASTER_NAME} ${FAILOVER_TIMEOUT_MS}`,
        `sentinel parallel-syncs ${MASTER_NAME} 1`,
        '',
      ].join('\n'),
    );
    let output = '';
    const proc = spawn('redis-sentinel', [conf], { stdio: ['ignore', 'pipe', 'pipe'] });
    proc.stdout.on('data', (c) => (output += c));
    proc.stderr.on('data', (c) => (output += c));
    killOnExit(proc);
    try {
      await waitUntilServing(proc, port, () => output);
      return { port, proc };
    } catch (err) {
      proc.kill('SIGKILL');
      if (attempt >= 4 || !/in use/i.test(String((err as Error).message))) throw err;
    }
  }
}

async function ask(port: number, args: string[]): Promise<unknown> {
  const client = createClient({ url: `redis://127.0.0.1:${port}` });
  await client.connect();
  try {
    return await client.sendCommand(args);
  } finally {
    client.destroy();
  }
}

/** `persistent`: AOF on both data nodes (default; a killed primary comes back with its data). */
export async function startSentinelGroup(options: { persistent?: boolean } = {}): Promise<SentinelGroup> {
  const persistent = options.persistent ?? true;
  const primary = await startRedisServer({ persistent });
  const replica = await startRedisServer({ persistent, config: { replicaof: `127.0.0.1 ${primary.port}` } });
  const dir = mkdtempSync(join(tmpdir(), 'dialback-sentinel-'));
  const sentinels = await Promise.all([0, 1, 2].map(() => startSentinel(primary.port, dir)));
  const sentinelPorts = sentinels.map((s) => s.port);
  const group: SentinelGroup = {
    primary,
    replica,
    sentinelPorts,
    sentinels: sentinelPorts.map((p) => `127.0.0.1:${p}`).join(','),
    async masterPort() {
      const [, port] = (await ask(sentinelPorts[0]!, ['SENTINEL', 'GET-MASTER-ADDR-BY-NAME', MASTER_NAME])) as [string, string];
      return Number(port);
    },
    async stop() {
      for (const { proc } of sentinels) proc.kill('SIGKILL');
      await Promise.all([primary.stop(), replica.stop()]);
      rmSync(dir, { recursive: true, force: true });
    },
  };
  // Ready when every sentinel knows the replica and the other sentinels (a failover needs both).
  const deadline = Date.now() + 20_000;
  for (const port of sentinelPorts) {
    for (;;) {
      const info = String(await ask(port, ['INFO', 'sentinel']));
      if (/slaves=1,sentinels=3/.test(info)) break;
      if (Date.now() > deadline) throw new Error(`sentinel ${port} did not see the replica and the other sentinels: ${info}`);
      await new Promise((r) => setTimeout(r, 100));
    }
  }
  return group;
}
