// Shared by the store tests: a fresh DATA_DIR per test, removed afterwards, and a child process that
// can be killed with SIGKILL in the middle of its work.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { afterEach } from 'vitest';

const made: string[] = [];

export function tempDataDir(): string {
  const dir = mkdtempSync(join(tmpdir(), 'dialback-store-'));
  made.push(dir);
  return dir;
}

afterEach(() => {
  for (const dir of made.splice(0)) rmSync(dir, { recursive: true, force: true });
});

export const T0 = 1_700_000_000_000;
export const sec = (n: number) => T0 + n * 1000;

const childScript = fileURLToPath(new URL('./fixtures/crash-child.ts', import.meta.url));

/**
 * Runs fixtures/crash-child.ts with `scenario`, waits until it prints "ready" (its work is done and
 * it idles), then kills it with SIGKILL: no exit handler, no flush, no close.
 */
export async function runAndKill(scenario: string, dataDir: string): Promise<string> {
  return (await killWhenReady(childScript, [scenario, dataDir])).out;
}

/** A child node process that has printed "ready": what it wrote so far, and its SIGKILL. */
export interface ReadyChild {
  readonly out: string;
  readonly err: string;
  /** Kills it with SIGKILL and waits until it is gone; throws if something else ended it. */
  kill(): Promise<void>;
}

/** Runs the node script `script` with `args` until it prints "ready". */
export async function spawnUntilReady(script: string, args: string[]): Promise<ReadyChild> {
  const child = spawn(process.execPath, [script, ...args], { stdio: ['ignore', 'pipe', 'pipe'] });
  let out = '';
  let err = '';
  child.stderr.on('data', (d: Buffer) => (err += d.toString()));
  await new Promise<void>((resolve, reject) => {
    child.stdout.on('data', (d: Buffer) => {
      out += d.toString();
      if (out.includes('ready')) resolve();
    });
    child.once('exit', (code) => reject(new Error(`child exited (${code}) before it was ready: ${err}`)));
  });
  return {
    get out() {
      return out;
    },
    get err() {
      return err;
    },
    async kill() {
      const exited = new Promise<NodeJS.Signals | null>((resolve) => child.once('exit', (_code, signal) => resolve(signal)));
      child.kill('SIGKILL');
      const signal = await exited;
      if (signal !== 'SIGKILL') throw new Error(`child ended by ${signal}, not SIGKILL`);
    },
  };
}

/** Runs the node script `script` with `args`, and once it prints "ready", kills it with SIGKILL. What it wrote. */
export async function killWhenReady(script: string, args: string[]): Promise<{ out: string; err: string }> {
  const child = await spawnUntilReady(script, args);
  await child.kill();
  return { out: child.out, err: child.err };
}
