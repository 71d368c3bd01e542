// `npm run simulator` (server/simulator/main.ts) as an operator runs it: a real process, its printed
// URL, a real request, a graceful SIGTERM; a bad setting stops startup with one clear line.
import { spawn, type ChildProcess } from 'node:child_process';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import { afterEach, describe, expect, it } from 'vitest';
import { COMPILE_CACHE_ENV } from '../support/child-processes.ts';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const children = new Set<ChildProcess>();
/** Resolves with the exit code once the process ended AND its output streams closed. */
const closed = new WeakMap<ChildProcess, Promise<number | null>>();

function run(env: Record<string, string>): ChildProcess {
  const child = spawn(process.execPath, ['server/simulator/main.ts'], {
    cwd: ROOT,
    env: { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '', ...COMPILE_CACHE_ENV, ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  children.add(child);
  closed.set(child, new Promise((resolve) => child.once('close', (code) => resolve(code))));
  child.on('exit', () => children.delete(child));
  return child;
}

function exitOf(child: ChildProcess): Promise<number | null> {
  return closed.get(child) ?? Promise.reject(new Error('not started by run()'));
}

function collect(stream: NodeJS.ReadableStream | null): string[] {
  const lines: string[] = [];
  if (stream) createInterface({ input: stream }).on('line', (l) => lines.push(l));
  return lines;
}

function firstJsonLine(child: ChildProcess): Promise<Record<string, unknown>> {
  return new Promise((resolve, reject) => {
    const rl = createInterface({ input: child.stdout! });
    rl.once('line', (line) => {
      try {
        resolve(JSON.parse(line) as Record<string, unknown>);
      } catch {
        reject(new Error(`first line is not JSON: ${line}`));
      }
    });
    child.once('exit', (code) => reject(new Error(`exited with ${code} before printing`)));
  });
}

afterEach(() => {
  for (const child of children) child.kill('SIGKILL');
});

describe('npm run simulator', () => {
  it('prints its URL, project id and key, serves the API, and stops on SIGTERM', async () => {
    const child = run({ SIMULATOR_PORT: '0', SIMULATOR_PROJECT_ID: '4242', SIMULATOR_AGENT_DRIFT_MS: '0' });
    const stderr = collect(child.stderr);
    const hello = await firstJsonLine(child);
    expect(hello).toMatchObject({ msg: 'simulator listening', projectId: '4242', authKey: 'sim-auth-key-0123456789' });
    const url = String(hello.url);
    expect(url).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);

    const res = await fetch(`${url}/sipstatus/online`, { headers: { 'Auth-key': 'sim-auth-key-0123456789' } });
    expect(await res.json()).toEqual(['manager1', 'manager2']);

    child.kill('SIGTERM');
    expect(await exitOf(child)).toBe(0);
    expect(stderr).toEqual([]);
  });

  it('never prints a key that came from the environment', async () => {
    const child = run({ SIMULATOR_PORT: '0', SIMULATOR_AUTH_KEY: 'operator-secret-key-123' });
    const stdout = collect(child.stdout);
    const hello = await firstJsonLine(child);
    expect(JSON.stringify(hello)).not.toContain('operator-secret-key-123');
    const res = await fetch(`${String(hello.url)}/sipstatus/online`, { headers: { 'Auth-key': 'operator-secret-key-123' } });
    expect(res.status).toBe(200);
    child.kill('SIGINT');
    expect(await exitOf(child)).toBe(0);
    expect(stdout.join('\n')).not.toContain('operator-secret-key-123');
  });

  it.each([
    ['SIMULATOR_PORT', 'eighty'],
    ['SIMULATOR_PORT', '70000'],
    ['SIMULATOR_AUTH_KEY', 'short'],
    ['SIMULATOR_PROJECT_ID', 'abc'],
    ['SIMULATOR_ROUTE_URL', 'not-a-url'],
    ['SIMULATOR_ROUTE_TIMEOUT', 'soon'],
  ])('stops with one clear line for a bad %s (%s)', async (name, value) => {
    const child = run({ SIMULATOR_PORT: '0', [name]: value });
    const stderr = collect(child.stderr);
    const stdout = collect(child.stdout);
    const code = await exitOf(child);
    expect(code).not.toBe(0);
    expect(stderr).toHaveLength(1);
    expect(stderr[0]).toMatch(new RegExp(`^simulator: ${name}: expected `));
    expect(stdout).toEqual([]);
  });
});
