// The frame of a test file of relay processes: one standalone simulator for the file (quick calls),
// and the relays a test starts, each killed after its test, with the simulator's record cleared.
import { afterAll, afterEach, beforeAll } from 'vitest';
import { startSimulator, type Simulator } from '../../server/simulator/index.ts';
import type { RelayProcess } from './relay-processes.ts';
import { QUICK_CALLS } from './system.ts';

export type StandaloneSimulator = Simulator & { url: string; close(): Promise<void> };

export interface RelayFleet {
  /** The file's simulator (from its beforeAll on). */
  readonly sim: StandaloneSimulator;
  /** Push every relay a test starts: they are killed after it. */
  readonly relays: RelayProcess[];
}

/** Call at the top of a test file. */
export function relayFleet(): RelayFleet {
  let sim: StandaloneSimulator | undefined;
  const relays: RelayProcess[] = [];
  beforeAll(async () => {
    sim = (await startSimulator({ port: 0, host: '127.0.0.1', timing: QUICK_CALLS })) as StandaloneSimulator;
  });
  afterEach(async () => {
    await Promise.all(relays.splice(0).map((r) => r.kill()));
    sim?.reset();
  });
  afterAll(async () => {
    await sim?.close();
  });
  return {
    get sim() {
      if (!sim) throw new Error('relayFleet: the simulator starts in beforeAll');
      return sim;
    },
    relays,
  };
}
