// The embedded store, assembled: one call at startup opens DATA_DIR/dialback.sqlite (creating and
// migrating it), starts the background checkpointer, the limit store's pruning and the privacy
// purge, and gives every store the relay needs; `close` stops the timers and closes the file.
import { join } from 'node:path';
import type { DatabaseSync } from 'node:sqlite';
import type { ConsentLog } from '../consent/consent-log.ts';
import type { WebhookOutbox } from '../webhooks/outbox.ts';
import type { CallbackJobStore } from '../callback/job-store.ts';
import type { IdempotencyStore } from '../idempotency/idempotency-store.ts';
import { createSqliteCallbackJobStore } from '../callback/stores/sqlite-job-store.ts';
import { startCheckpointer, type Checkpointer } from '../storage/sqlite/checkpointer.ts';
import { createSqliteConsentLog } from '../consent/sqlite-consent-log.ts';
import { DATABASE_FILE, openDatabase } from '../storage/sqlite/database.ts';
import { createSqliteIdempotencyStore } from '../idempotency/sqlite-store.ts';
import { createSqliteLimitStore, type SqliteLimitStore } from '../limits/sqlite/limit-store.ts';
import { createPurge, type Purge } from '../storage/sqlite/purge.ts';
import { createSqliteWebhookOutbox } from '../webhooks/sqlite-outbox.ts';
import type { LeadTally } from '../webhooks/notify/lead-tally.ts';
import { createSqliteLeadTally } from '../webhooks/notify/sqlite-lead-tally.ts';
import { DEFERRABLE_TABLES } from '../limits/limit-store.ts';
import type { ReportStore } from '../report/report-store.ts';
import { createSqliteReportStore } from '../report/sqlite-report-store.ts';
import type { NeverCallList } from '../phone/never-call-list.ts';
import { createSqliteNeverCallList } from '../phone/sqlite-never-call-list.ts';
import type { CallBackNumbers } from '../owner/callback-numbers.ts';
import { createSqliteCallBackNumbers } from '../owner/sqlite-callback-numbers.ts';
import type { NumberRecords } from '../number-data/number-records.ts';
import { createSqliteNumberRecords } from '../number-data/sqlite-number-records.ts';

export interface OpenStoreOptions {
  dataDir: string;
  /** HASH_SECRET: keys the hashes of numbers and fingerprints. */
  hashSecret: string;
  retentionDays: number;
  /** LIMITER_MAX_KEYS. */
  limiterMaxKeys: number;
  idempotency: { ttlSec: number; maxKeys: number };
  /** How often the purge and the limit store's pruning run. */
  maintenanceIntervalMs?: number;
  now?: () => number;
}

export interface EmbeddedStore {
  db: DatabaseSync;
  limits: SqliteLimitStore;
  idempotency: IdempotencyStore;
  jobs: CallbackJobStore;
  consent: ConsentLog;
  outbox: WebhookOutbox;
  report: ReportStore;
  neverCall: NeverCallList;
  callBackNumbers: CallBackNumbers;
  numberRecords: NumberRecords;
  leadTally: LeadTally;
  purge: Purge;
  close(): Promise<void>;
}

export function openEmbeddedStore(options: OpenStoreOptions): EmbeddedStore {
  const db = openDatabase({ dataDir: options.dataDir });
  const interval = options.maintenanceIntervalMs ?? 60_000;
  const now = options.now ?? Date.now;
  const checkpointer: Checkpointer = startCheckpointer(db, join(options.dataDir, DATABASE_FILE));
  const limits = createSqliteLimitStore({ db, maxKeysPerTable: options.limiterMaxKeys, batchedTables: DEFERRABLE_TABLES, pruneIntervalMs: interval, now });
  const purge = createPurge({ db, retentionDays: options.retentionDays, now, truncateWal: () => checkpointer.truncate() });
  purge.start(interval);
  return {
    db,
    limits,
    idempotency: createSqliteIdempotencyStore({ db, ttlSec: options.idempotency.ttlSec, maxKeys: options.idempotency.maxKeys, hashSecret: options.hashSecret, now }),
    jobs: createSqliteCallbackJobStore({ db }),
    consent: createSqliteConsentLog({ db, hashSecret: options.hashSecret }),
    outbox: createSqliteWebhookOutbox({ db }),
    report: createSqliteReportStore({ db, now }),
    neverCall: createSqliteNeverCallList(db),
    callBackNumbers: createSqliteCallBackNumbers(db),
    numberRecords: createSqliteNumberRecords(db, () => checkpointer.truncate()),
    leadTally: createSqliteLeadTally({ db }),
    purge,
    async close() {
      purge.stop();
      limits.close();
      await checkpointer.stop();
      db.close();
    },
  };
}
