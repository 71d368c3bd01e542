// The memory IdempotencyStore, for tests and benchmarks: protect/idempotency.ts behind the async
// interface. Forgets everything on restart; the relay's default is the SQLite store.
import { createIdempotencyStore } from './memory-entries.ts';
import type { IdempotencyStore, IdempotencyStoreOptions } from './idempotency-store.ts';

export function createMemoryIdempotencyStore(options: IdempotencyStoreOptions): IdempotencyStore {
  const inner = createIdempotencyStore(options);
  return {
    async begin(scope, key, fingerprint) {
      const begun = inner.begin(scope, key, fingerprint);
      if (begun.kind === 'replay') return begun;
      const { ticket } = begun;
      return {
        kind: 'new',
        ticket: {
          complete: async (reply) => ticket.complete(reply),
          abandon: async () => ticket.abandon(),
        },
      };
    },
    has: async (scope, key) => inner.has(scope, key),
    size: async () => inner.size,
  };
}
