// A visitor's data on request: what each store keeps about one number, found by its keyed hash
// (HMAC-SHA256 with HASH_SECRET: every record that names a number names it so), and its erasure.
// Each store kind has its own adapter (sqlite-, redis-, memory-number-records.ts); number-data.ts
// puts them together with the rest of what the relay keeps (limits, call-back numbers, never-call).
import type { ConsentRecord } from '../consent/consent-log.ts';
import type { CallbackJob } from '../callback/job-store.ts';
import type { OutboxEntry } from '../webhooks/outbox.ts';

export interface KeptRecords {
  /** Callback jobs (held calls and followed ones) of the number. */
  jobs: CallbackJob[];
  consent: ConsentRecord[];
  /** Lead webhook events about it. */
  outbox: OutboxEntry[];
}

export interface ErasedRecords {
  jobs: number;
  consent: number;
  outbox: number;
}

export interface NumberRecords {
  find(numberHash: string): Promise<KeptRecords>;
  /** Deletes them all, and whatever copy of them the store's caches still hold. */
  erase(numberHash: string): Promise<ErasedRecords>;
  /** After an erasure (of these records and any other): older copies of what was erased leave the store's files (SQLite: its WAL). */
  scrub(): Promise<void>;
}
