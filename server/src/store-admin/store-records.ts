// Every kind of record a move carries, as each store reads and writes it (the record sets beside
// each store), in the order they are moved. What is not carried, and why (docs/operations.md,
// "Moving between stores"): the abuse limits' counts and in-flight slots (they count minutes to a
// day, and a stopped relay's slots are over), and what relays on Redis coordinate without keeping
// it (the service polls' cache and locks, the site breaker, the erasure notices, the write check).
import type { DatabaseSync } from 'node:sqlite';
import { redisConsentRecords, sqliteConsentRecords } from '../consent/consent-records.ts';
import { redisIdempotencyRecords, sqliteIdempotencyRecords } from '../idempotency/idempotency-records.ts';
import { redisJobRecords } from '../callback/stores/redis-job-records.ts';
import { sqliteJobRecords } from '../callback/stores/sqlite-job-records.ts';
import { redisCallBackNumberRecords, sqliteCallBackNumberRecords } from '../owner/callback-number-records.ts';
import { redisNeverCallRecords, sqliteNeverCallRecords } from '../phone/never-call-records.ts';
import { createRedisNeverCallList } from '../phone/redis-never-call-list.ts';
import { createSqliteNeverCallList } from '../phone/sqlite-never-call-list.ts';
import { createRedisReportStore } from '../report/redis-report-store.ts';
import { redisReportRecords, sqliteReportRecords } from '../report/report-records.ts';
import { createSqliteReportStore } from '../report/sqlite-report-store.ts';
import type { RecordSet } from '../storage/record-set.ts';
import type { RedisConnection } from '../storage/redis/connection.ts';
import { redisLeadTallyRecords, sqliteLeadTallyRecords } from '../webhooks/notify/lead-tally-records.ts';
import { createRedisLeadTally } from '../webhooks/notify/redis-lead-tally.ts';
import { createSqliteLeadTally } from '../webhooks/notify/sqlite-lead-tally.ts';
import { redisOutboxRecords, sqliteOutboxRecords } from '../webhooks/outbox-records.ts';

export const RECORD_KINDS = [
  /** Held calls: booked, queued, being followed, re-dials; and finished ones within DATA_RETENTION_DAYS. */
  'calls',
  /** The lead webhook's and the notifications' outbox. */
  'outbox',
  'consent',
  'never-call',
  /** Numbers kept for the owner's "call back now". */
  'call-back-numbers',
  /** The lead report's facts (REPORT_RETENTION_DAYS). */
  'report-leads',
  /** The lead report's dialog opens per day and group. */
  'report-opens',
  /** The daily digest's leads of the last week. */
  'digest-leads',
  /** Idempotency-Keys within their TTL, answered or running. */
  'idempotency-keys',
] as const;

export type RecordKind = (typeof RECORD_KINDS)[number];
// Each kind has its own record type; the move only hands a batch from one side to the other.
// biome-ignore lint/suspicious/noExplicitAny: the batches pass through untouched
export type StoreRecords = Record<RecordKind, RecordSet<any>>;

export function embeddedRecords(db: DatabaseSync, settings: { retentionDays: number }): StoreRecords {
  const report = sqliteReportRecords(db, createSqliteReportStore({ db }));
  return {
    calls: sqliteJobRecords(db, settings),
    outbox: sqliteOutboxRecords(db, settings),
    consent: sqliteConsentRecords(db, settings),
    'never-call': sqliteNeverCallRecords(db, createSqliteNeverCallList(db)),
    'call-back-numbers': sqliteCallBackNumberRecords(db),
    'report-leads': report.leads,
    'report-opens': report.opens,
    'digest-leads': sqliteLeadTallyRecords(db, createSqliteLeadTally({ db })),
    'idempotency-keys': sqliteIdempotencyRecords(db),
  };
}

export function redisRecords(connection: RedisConnection, settings: { retentionDays: number }): StoreRecords {
  const report = redisReportRecords(connection, createRedisReportStore({ connection }));
  return {
    calls: redisJobRecords(connection, settings),
    outbox: redisOutboxRecords(connection, settings),
    consent: redisConsentRecords(connection, settings),
    'never-call': redisNeverCallRecords(connection, createRedisNeverCallList(connection)),
    'call-back-numbers': redisCallBackNumberRecords(connection),
    'report-leads': report.leads,
    'report-opens': report.opens,
    'digest-leads': redisLeadTallyRecords(connection, createRedisLeadTally({ connection })),
    'idempotency-keys': redisIdempotencyRecords(connection),
  };
}
