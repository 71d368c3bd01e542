// Graceful shutdown: on SIGTERM the relay stops accepting, reports not ready, and finishes the
// requests it has (a callback being placed must get its answer: the call is real).
import { afterEach, describe, expect, it } from 'vitest';
import { spawn, type ChildProcess } from 'node:child_process';
import { startSimulator } from '../../../server/simulator/index.ts';
import { ORIGIN, postCallback } from '../../support/post-callback.ts';
import { callbackCalls, QUICK_CALLS, startSystem } from '../../support/system.ts';
import { tempDir } from '../../support/temp-dirs.ts';
import { COMPILE_CACHE_ENV } from '../../support/child-processes.ts';

const children: ChildProcess[] = [];
afterEach(() => {
  for (const child of children.splice(0)) child.kill('SIGKILL');
});

describe('graceful shutdown', () => {
  it('relay.close() finishes an in-flight callback, is not ready meanwhile, and refuses new connections after', async () => {
    const s = await startSystem({ ALLOWED_ORIGINS: ORIGIN, UPSTREAM_TIMEOUT_MS: '5000' }, { simulator: { timing: QUICK_CALLS } });
    try {
      s.sim.faults.set('callback', { kind: 'delay', ms: 600 });
      const inFlight = postCallback(s, { phone: '+380501234567' });
      while (callbackCalls(s).length === 0) await new Promise((r) => setTimeout(r, 10));
      const closing = s.relay.close();
      expect((await s.relay.app.readiness.check()).ready).toBe(false);
      const res = await inFlight;
      expect(res.status).toBe(202);
      await closing;
      await expect(fetch(`${s.relayUrl}/healthz`)).rejects.toThrow();
    } finally {
      await s.sim.close();
    }
  });

  it('the process finishes an in-flight callback on SIGTERM, then exits 0', async () => {
    const sim = await startSimulator({ port: 0, host: '127.0.0.1', timing: QUICK_CALLS });
    try {
      sim.faults.set('callback', { kind: 'delay', ms: 800 });
      const child = spawn(process.execPath, ['server/src/main.ts'], {
        env: {
          DATA_DIR: tempDir('data'),
          PATH: process.env.PATH,
          HOME: process.env.HOME,
          ...COMPILE_CACHE_ENV,
          PORT: '0',
          CALLTRACKING_BASE_URL: sim.url,
          CALLTRACKING_AUTH_KEY: sim.authKey,
          CALLTRACKING_PROJECT_ID: sim.projectId,
          CALLBACK_CALLER: sim.officeLine,
          ALLOWED_ORIGINS: ORIGIN,
          HASH_SECRET: 'test-hash-secret-0123456789',
        },
        stdio: ['ignore', 'pipe', 'pipe'],
      });
      children.push(child);
      let out = '';
      child.stdout!.on('data', (d) => (out += d));
      const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
      let port: number | undefined;
      const deadline = Date.now() + 20_000;
      while (port === undefined && Date.now() < deadline) {
        const line = out.split('\n').find((l) => l.includes('"relay listening"'));
        if (line) port = (JSON.parse(line) as { port: number }).port;
        else await new Promise((r) => setTimeout(r, 50));
      }
      expect(port).toBeTypeOf('number');
      const inFlight = postCallback(`http://127.0.0.1:${port}`, { phone: '+380501234567' });
      while (!sim.requests.some((r) => r.path === '/a/v2')) await new Promise((r) => setTimeout(r, 10));
      child.kill('SIGTERM');
      expect((await inFlight).status).toBe(202);
      expect(await exited).toBe(0);
      expect(out).toContain('shutting down');
    } finally {
      await sim.close();
    }
  }, 30_000);
});
