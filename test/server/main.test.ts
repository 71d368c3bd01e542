// The relay's entry point as an operator runs it: a real process, real environment variables.
import { afterEach, describe, expect, it } from 'vitest';
import { spawn, type ChildProcess } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { postCallback } from '../support/post-callback.ts';
import { QUICK_CALLS } from '../support/system.ts';
import { tempDir } from '../support/temp-dirs.ts';
import { COMPILE_CACHE_ENV } from '../support/child-processes.ts';

const children: ChildProcess[] = [];
afterEach(() => {
  for (const child of children.splice(0)) child.kill('SIGKILL');
});

function start(env: Record<string, string>) {
  const child = spawn(process.execPath, ['server/src/main.ts'], {
    // Each process keeps its state in a fresh DATA_DIR of its own, never the repository's ./data.
    env: { PATH: process.env.PATH, HOME: process.env.HOME, ...COMPILE_CACHE_ENV, DATA_DIR: tempDir('data'), ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  children.push(child);
  let stdout = '';
  let stderr = '';
  child.stdout!.on('data', (d) => (stdout += d));
  child.stderr!.on('data', (d) => (stderr += d));
  const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
  return { child, exited, out: () => stdout, err: () => stderr };
}

/** The port in the relay's 'relay listening' log line, once it was written. */
function listeningPort(out: string): number | undefined {
  const lines = out
    .split('\n')
    .filter((l) => l.startsWith('{'))
    .map((l) => JSON.parse(l) as { msg?: string; port?: number });
  return lines.find((l) => l.msg === 'relay listening')?.port;
}

async function waitFor<T>(probe: () => T | undefined, what: string, ms = 20_000): Promise<T> {
  const deadline = Date.now() + ms;
  for (;;) {
    const value = probe();
    if (value !== undefined) return value;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

describe('server/src/main.ts', () => {
  it('starts the simulator and the relay in demo mode, prints the demo URL, and stops on SIGTERM', async () => {
    const proc = start({ PORT: '0', HOST: '127.0.0.1' });
    const url = await waitFor(() => /Dialback demo:\s+(http:\/\/127\.0\.0\.1:\d+)\//.exec(proc.out())?.[1], 'the demo URL');
    const status = await fetch(`${url}/api/status`).then((r) => r.json());
    expect(status).toMatchObject({ openNow: true, source: 'live' });
    expect(status.agentsOnline).toBeGreaterThan(0);
    expect((await fetch(`${url}/healthz`)).status).toBe(200);
    proc.child.kill('SIGTERM');
    expect(await proc.exited).toBe(0);
    expect(proc.out()).toContain('shutting down');
    // The simulator's demo key is printed once in the banner for the owner; JSON log lines never carry it.
    const jsonLines = proc
      .out()
      .split('\n')
      .filter((l) => l.startsWith('{'));
    expect(jsonLines.length).toBeGreaterThan(1);
    expect(jsonLines.join('\n')).not.toContain('sim-auth-key');
  });

  it('stops at once with one clear line on a bad setting', async () => {
    const proc = start({ PORT: '0', DEFAULT_COUNTRY: 'Ukraine' });
    expect(await proc.exited).toBe(1);
    expect(proc.err().trim()).toBe('dialback: invalid configuration: DEFAULT_COUNTRY: expected an ISO 3166-1 alpha-2 country code such as UA, got "Ukraine"');
  });

  it('runs against an external service (here the standalone simulator) with a base URL and a key', async () => {
    const { startSimulator } = await import('../../server/simulator/index.ts');
    const sim = await startSimulator({ port: 0, host: '127.0.0.1' });
    try {
      const proc = start({ PORT: '0', CALLTRACKING_BASE_URL: sim.url, CALLTRACKING_AUTH_KEY: sim.authKey, ALLOWED_ORIGINS: 'https://shop.example' });
      const port = await waitFor(() => listeningPort(proc.out()), 'the relay to listen');
      expect(proc.out()).toContain('CALLTRACKING_PROJECT_ID is not set');
      expect(proc.out()).not.toContain('Dialback demo:');
      const res = await postCallback(`http://127.0.0.1:${port}`, { phone: '050 123 45 67' }, { origin: 'https://shop.example' });
      expect(res.status).toBe(202);
      expect(sim.calls).toHaveLength(1);
      expect((await fetch(`http://127.0.0.1:${port}/`)).status).toBe(404);
    } finally {
      await sim.close();
    }
  });

  it('starts in production exactly as the README says (node server/src/main.ts), places a callback, and loads neither the simulator nor a devDependency', async () => {
    const { startSimulator } = await import('../../server/simulator/index.ts');
    const sim = await startSimulator({ port: 0, host: '127.0.0.1', timing: QUICK_CALLS });
    const loaded = join(tempDir('modules'), 'loaded.txt');
    try {
      // The README's production environment, pointed at a standalone simulator; the preload only records module URLs.
      const proc = start({
        NODE_OPTIONS: `--import ${new URL('../support/record-loaded-modules.ts', import.meta.url).href}`,
        DIALBACK_LOADED_MODULES: loaded,
        PORT: '0',
        CALLTRACKING_BASE_URL: sim.url,
        CALLTRACKING_AUTH_KEY: sim.authKey,
        CALLTRACKING_PROJECT_ID: sim.projectId,
        CALLBACK_CALLER: sim.officeLine,
        ALLOWED_ORIGINS: 'https://shop.example.com',
        PUBLIC_URL: 'https://calls.example.com',
        HASH_SECRET: 'production-hash-secret-0123456789abcdef',
      });
      const port = await waitFor(() => listeningPort(proc.out()), 'the relay to listen');
      expect(proc.out()).not.toContain('is not set');
      const res = await postCallback(`http://127.0.0.1:${port}`, { phone: '050 123 45 67', consent: true }, { origin: 'https://shop.example.com' });
      expect(res.status).toBe(202);
      expect(sim.calls).toHaveLength(1);
      expect(sim.requests.filter((r) => r.path === '/a/v2')).toHaveLength(1);
      expect((await fetch(`http://127.0.0.1:${port}/widget.js`)).status).toBe(200);
      proc.child.kill('SIGTERM');
      expect(await proc.exited).toBe(0);

      const urls = readFileSync(loaded, 'utf8').trim().split('\n');
      const root = new URL('../../', import.meta.url).href;
      const ours = urls.filter((u) => u.startsWith(root) && !u.includes('/node_modules/')).map((u) => u.slice(root.length));
      expect(ours).toContain('server/src/main.ts');
      expect(ours.filter((u) => !u.startsWith('server/src/'))).toEqual([]);
      // Every package the relay loads is a runtime dependency or one of theirs (npm prune --omit=dev keeps those).
      const pkg = JSON.parse(readFileSync(fileURLToPath(new URL('../../package.json', import.meta.url)), 'utf8')) as { devDependencies: Record<string, string> };
      const packages = new Set(urls.map((u) => /\/node_modules\/((?:@[^/]+\/)?[^/]+)\//.exec(u)?.[1]).filter((p): p is string => p !== undefined));
      expect(packages.size).toBeGreaterThan(0);
      expect([...packages].filter((p) => p in pkg.devDependencies)).toEqual([]);
      // No OTEL_* variable: OpenTelemetry's SDK is not even loaded (its API package is, by prom-client).
      expect([...packages].filter((p) => p.startsWith('@opentelemetry/') && p !== '@opentelemetry/api')).toEqual([]);
      expect(ours).not.toContain('server/src/tracing/otel.ts');
    } finally {
      await sim.close();
    }
  });

  it('needs the Auth-key with a real service URL', async () => {
    const proc = start({ PORT: '0', CALLTRACKING_BASE_URL: 'https://api.example.net' });
    expect(await proc.exited).toBe(1);
    expect(proc.err()).toMatch(/^dialback: invalid configuration: CALLTRACKING_AUTH_KEY: required/);
  });
});
