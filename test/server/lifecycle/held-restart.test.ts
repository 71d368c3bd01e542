// kill -9 at each step of placing a scheduled and a queued call, then a restart on the same
// DATA_DIR with the clock past the lease: exactly one call each. The child (fixtures/held-relay-child.ts)
// is a relay with the real job runner, stopped at the step and killed with SIGKILL; the simulator
// lives in this process, so its call log remembers what the dead relay did. The restarted relay
// runs on the test's clock: a job the dead relay held waits out its lease, then is taken over as
// interrupted, and the call log decides whether it is placed.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, describe, expect, it } from 'vitest';
import { loadConfig } from '../../../server/src/config/index.ts';
import { createLogger } from '../../../server/src/log/index.ts';
import { createRelay, type Relay } from '../../../server/src/relay.ts';
import { openEmbeddedStores, type RelayStores } from '../../../server/src/app/relay-stores.ts';
import { startSimulator } from '../../../server/simulator/index.ts';
import { QUICK_CALLS } from '../../support/system.ts';
import { killWhenReady } from '../../support/crash.ts';
import { CHILD_CALLBACK_ID, CHILD_PHONE, callsSettled, callsTo, HELD_ENV, manualTimers, testClock } from '../../support/held-calls.ts';

const T0 = new Date('2026-11-23T08:00:00Z');
const LEASE_MS = 60_000;
const clock = testClock(T0);
const childScript = fileURLToPath(new URL('../../support/fixtures/held-relay-child.ts', import.meta.url));

const cleanup: Array<() => Promise<void> | void> = [];
afterEach(async () => {
  for (const fn of cleanup.splice(0).reverse()) await fn();
  clock.set(T0);
});

async function runChildAndKill(args: string[]): Promise<void> {
  const { err } = await killWhenReady(childScript, args);
  // Full numbers never reach the log.
  expect(err).not.toContain('509876543');
}

/** A relay on `dataDir` against `simUrl`, on the test's clock; its runner runs only when asked. */
function restartOn(dataDir: string, simUrl: string): { relay: Relay; stores: RelayStores } {
  const config = loadConfig({
    ...HELD_ENV,
    PORT: '0',
    DATA_DIR: dataDir,
    CALLTRACKING_BASE_URL: simUrl,
    CALLTRACKING_AUTH_KEY: 'sim-auth-key-0123456789',
    CALLTRACKING_PROJECT_ID: '100500',
    CALLBACK_CALLER: '380441112233',
  });
  const stores = openEmbeddedStores(config, () => clock.ms);
  const relay = createRelay({ config, log: createLogger({ level: 'silent' }), stores, now: clock.now, runner: { timers: manualTimers(clock) } });
  cleanup.push(async () => {
    await relay.close();
    await stores.close();
  });
  return { relay, stores };
}

describe.each(['scheduled', 'queued'] as const)('kill -9 while a %s call is being placed, then a restart', (kind) => {
  it.each([
    ['added', 'before it is claimed', 0],
    ['placing', 'after its claim, before the service is asked', 0],
    ['placed', 'after the service took it, before anything is recorded', 1],
  ] as const)('%s (%s): exactly one call', async (step, _what, callsBeforeRestart) => {
    const sim = await startSimulator({ port: 0, host: '127.0.0.1', timing: QUICK_CALLS, now: clock.now });
    cleanup.push(() => sim.close());
    const dataDir = mkdtempSync(join(tmpdir(), 'dialback-held-'));
    cleanup.push(() => rmSync(dataDir, { recursive: true, force: true }));

    await runChildAndKill([dataDir, sim.url, kind, step, String(T0.getTime())]);
    expect(callsTo({ sim }, CHILD_PHONE)).toHaveLength(callsBeforeRestart);

    const { relay } = restartOn(dataDir, sim.url);
    if (step !== 'added') {
      // The dead relay's lease still holds the job.
      clock.set(T0.getTime() + LEASE_MS - 1);
      expect(await relay.runner.runOnce()).toBe(0);
    }
    clock.set(T0.getTime() + LEASE_MS);
    // Run until the job is over (placed and followed to its end), the clock moving on each time.
    for (let i = 0; i < 10; i++) {
      await relay.runner.runOnce();
      await callsSettled({ sim }, CHILD_PHONE);
      const job = await relay.app.stores.jobs.get(CHILD_CALLBACK_ID);
      if (job?.state !== 'pending') break;
      clock.set(Math.max(job.dueAt, clock.ms + 1000));
    }
    expect(await relay.app.stores.jobs.get(CHILD_CALLBACK_ID)).toMatchObject({ state: 'completed', outcome: 'answered' });
    expect(callsTo({ sim }, CHILD_PHONE)).toHaveLength(1);
    expect(sim.requests.filter((r) => r.path === '/a/v2')).toHaveLength(1);
    clock.advance(3_600_000);
    expect(await relay.runner.runOnce()).toBe(0);
  });
});
