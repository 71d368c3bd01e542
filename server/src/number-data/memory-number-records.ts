// NumberRecords over the memory stores (tests and benchmarks; they forget everything on restart):
// the number's callback jobs and outbox entries, found and erased by its keyed hash. Its consent
// records are the memory consent log's (consent-log.ts), which number-data.ts reads and forgets
// with the rest of what this relay holds in memory.
import type { MemoryCallbackJobStore } from '../callback/stores/memory-job-store.ts';
import type { MemoryWebhookOutbox } from '../webhooks/memory-outbox.ts';
import type { NumberRecords } from './number-records.ts';

export function createMemoryNumberRecords(stores: { jobs: MemoryCallbackJobStore; outbox: MemoryWebhookOutbox }): NumberRecords {
  return {
    find: async (hash) => ({ jobs: stores.jobs.ofNumber(hash).sort((a, b) => a.createdAt - b.createdAt), consent: [], outbox: stores.outbox.ofNumber(hash) }),
    erase: async (hash) => ({ jobs: stores.jobs.eraseNumber(hash), consent: 0, outbox: stores.outbox.eraseNumber(hash) }),
    scrub: async () => {},
  };
}
