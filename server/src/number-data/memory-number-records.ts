// The memory store keeps no index to find a number's records by, and forgets everything on
// restart: it is for tests and benchmarks only. Its records are not found nor erased here.
import type { NumberRecords } from './number-records.ts';

export function createMemoryNumberRecords(): NumberRecords {
  return {
    find: async () => ({ jobs: [], consent: [], outbox: [] }),
    erase: async () => ({ jobs: 0, consent: 0, outbox: 0 }),
  };
}
