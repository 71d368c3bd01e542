// The test support removes the temporary directories it makes: a relay's DATA_DIR, in process
// (startSystem) or as a process (startRelay), is there while its test runs and gone once it is over.
// Left to themselves, one quick-tier run once left some 10,000 of them in /tmp. (The two tests of
// each pair run in order: the second looks at what the first left.)
import { existsSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { startSimulator } from '../../server/simulator/index.ts';
import { ORIGIN } from '../support/post-callback.ts';
import { relayEnv, startRelay } from '../support/relay-processes.ts';
import { QUICK_CALLS, startSystem } from '../support/system.ts';

describe('a system started in a test', () => {
  let dataDir = '';
  it('keeps its state in a DATA_DIR of its own while it runs', async () => {
    const s = await startSystem({ ALLOWED_ORIGINS: ORIGIN });
    dataDir = s.config.store.dataDir;
    expect(existsSync(dataDir)).toBe(true);
    await s.close();
    // Still there once closed: a test may read the stopped relay's files.
    expect(existsSync(dataDir)).toBe(true);
  });
  it('leaves no DATA_DIR behind once its test is over', () => {
    expect(dataDir).not.toBe('');
    expect(existsSync(dataDir)).toBe(false);
  });
});

describe('a relay process started in a test', () => {
  let dataDir = '';
  it('keeps its state in a DATA_DIR of its own while it runs', async () => {
    const sim = await startSimulator({ port: 0, host: '127.0.0.1', timing: QUICK_CALLS });
    try {
      const relay = await startRelay(relayEnv(sim, {}));
      dataDir = relay.dataDir;
      expect(existsSync(dataDir)).toBe(true);
      await relay.kill();
    } finally {
      await sim.close();
    }
  });
  it('leaves no DATA_DIR behind once its test is over', () => {
    expect(dataDir).not.toBe('');
    expect(existsSync(dataDir)).toBe(false);
  });
});
