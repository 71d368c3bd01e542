// Relays as an operator runs them — `node server/src/main.ts`, separate processes, real environment
// variables — sharing one Redis and one standalone simulator. Each relay's port is read from its
// 'relay listening' JSON log line; SIGKILL is a crash, SIGTERM a shutdown.
import { spawn, type ChildProcess } from 'node:child_process';
import { killOnExit } from './child-processes.ts';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

export interface RelayProcess {
  url: string;
  child: ChildProcess;
  /** Everything it wrote on stdout so far. */
  out(): string;
  /** Its JSON log lines so far. */
  lines(): Array<Record<string, unknown> & { msg?: string; level?: string | number }>;
  kill(signal?: NodeJS.Signals): Promise<void>;
}

export async function startRelay(env: Record<string, string>): Promise<RelayProcess> {
  const child = spawn(process.execPath, ['server/src/main.ts'], {
    env: { PATH: process.env.PATH, HOME: process.env.HOME, DATA_DIR: mkdtempSync(join(tmpdir(), 'dialback-data-')), PORT: '0', HOST: '127.0.0.1', ...env },
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
  const deadline = Date.now() + 20_000;
  let port: number | undefined;
  while (port === undefined) {
    port = lines().find((l) => l.msg === 'relay listening')?.port as number | undefined;
    if (port !== undefined) break;
    if (child.exitCode !== null) throw new Error(`relay exited at start: ${stderr}${stdout}`);
    if (Date.now() > deadline) throw new Error(`relay did not listen within 20 s: ${stderr}${stdout}`);
    await new Promise((r) => setTimeout(r, 25));
  }
  return {
    url: `http://127.0.0.1:${port}`,
    child,
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
