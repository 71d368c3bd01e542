// A job keeps the department its call is from, in the memory, the SQLite and the Redis store alike
// (SQLite: its own column, which a file written before departments gains empty; Redis: a field of
// the job hash), through every read: get, a claim, the pending and the failed lists. A job without
// one (no DEPARTMENTS_FILE, or booked before departments) reads back without one.
import { DatabaseSync } from 'node:sqlite';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { CallbackJobStore } from '../../../server/src/callback/job-store.ts';
import { createMemoryCallbackJobStore } from '../../../server/src/callback/stores/memory-job-store.ts';
import { createRedisCallbackJobStore } from '../../../server/src/callback/stores/redis-job-store.ts';
import { createSqliteCallbackJobStore } from '../../../server/src/callback/stores/sqlite-job-store.ts';
import { openDatabase } from '../../../server/src/storage/sqlite/database.ts';
import { migrations } from '../../../server/src/storage/sqlite/schema.ts';
import { tempDataDir } from '../../support/crash.ts';
import { redisForTests } from '../../support/redis-test-connection.ts';
import { jobFor, T0 } from '../../support/store-scenarios.ts';

const LEASE = 30_000;
const redis = redisForTests();
const factories: [string, () => CallbackJobStore][] = [
  ['memory', () => createMemoryCallbackJobStore()],
  ['sqlite', () => createSqliteCallbackJobStore({ db: openDatabase({ dataDir: tempDataDir() }) })],
  ['redis', () => createRedisCallbackJobStore({ connection: redis.fresh(), retentionDays: 30 })],
];

const withDepartment = (callbackId: string, n: string, department: string) => {
  const job = jobFor(callbackId, n, T0);
  return { ...job, request: { ...job.request, department } };
};

describe.each(factories)('a job keeps its department: %s', (_name, make) => {
  it('through get, claim, the pending and the failed lists; a job without one has none', async () => {
    const store = make();
    await store.add(withDepartment('sales-1', '1', 'sales'), T0);
    await store.add(withDepartment('support-1', '2', 'support'), T0);
    await store.add(jobFor('none-1', '3', T0), T0);
    expect((await store.get('sales-1'))!.request.department).toBe('sales');
    expect(await store.get('none-1')).not.toHaveProperty('request.department');
    const claimed = await store.claimDue('relay-a', T0, LEASE, 10);
    // All due at once: in no particular order.
    expect(new Map(claimed.map((j) => [j.callbackId, j.request.department]))).toEqual(
      new Map([
        ['sales-1', 'sales'],
        ['support-1', 'support'],
        ['none-1', undefined],
      ]),
    );
    expect(await store.advance('support-1', 'relay-a', 'scheduled', { stage: 'failed', outcome: 'upstream_rejected' }, T0 + 1)).toBe(true);
    expect(
      await store.advance('sales-1', 'relay-a', 'scheduled', { stage: 'redial', dueAt: T0 + 60_000, progress: claimed.find((j) => j.callbackId === 'sales-1')!.progress }, T0 + 1),
    ).toBe(true);
    expect((await store.listPending(10)).find((j) => j.callbackId === 'sales-1')!.request.department).toBe('sales');
    expect((await store.listFailed(T0, 10)).map((j) => j.request.department)).toEqual(['support']);
  });
});

describe('the SQLite column', () => {
  it('a file written before departments gains the column, its jobs without a department, and keeps them', async () => {
    const dataDir = tempDataDir();
    // The file as the relay before departments left it: the migrations before the department's.
    const before = migrations.slice(
      0,
      migrations.findIndex((m) => m.sql.includes('ADD COLUMN department')),
    );
    const raw = new DatabaseSync(join(dataDir, 'dialback.sqlite'));
    for (const m of before) raw.exec(m.sql);
    raw.exec(`PRAGMA user_version = ${before.length}`);
    raw
      .prepare(
        "INSERT INTO callback_jobs (callback_id, requested_as, stage, state, due_ms, number_hash, masked_number, e164, request, created_ms, updated_ms) VALUES ('old', 'scheduled', 'scheduled', 'pending', ?, 'h', '+380 50 *** **01', '+380500000001', ?, ?, ?)",
      )
      .run(T0, JSON.stringify({ attribution: {}, clientIp: '203.0.113.9', userAgent: null, origin: 'https://shop.example', pageUrl: null, locale: null }), T0, T0);
    raw.close();

    const db = openDatabase({ dataDir });
    const columns = (db.prepare('PRAGMA table_info(callback_jobs)').all() as Array<{ name: string }>).map((c) => c.name);
    expect(columns).toContain('department');
    const store = createSqliteCallbackJobStore({ db });
    const old = await store.get('old');
    expect(old).toMatchObject({ callbackId: 'old', stage: 'scheduled', request: { e164: '+380500000001' } });
    expect(old).not.toHaveProperty('request.department');
    await store.add(withDepartment('new', '2', 'sales'), T0);
    expect(db.prepare("SELECT department FROM callback_jobs WHERE callback_id = 'new'").get()).toEqual({ department: 'sales' });
  });
});
