// A lead's consent mark (tracking-consent/snapshot.ts) in each report store a relay can run on
// (memory, SQLite, Redis, a real Redis Cluster): kept as given, '' for a fact that was told none, and
// '' for the facts stored before marks existed (a SQLite file of schema 8, a Redis hash without it).
import { describe, expect, it } from 'vitest';
import { createRedisReportStore } from '../../../server/src/report/redis-report-store.ts';
import type { NewLeadFact } from '../../../server/src/report/report-store.ts';
import { createSqliteReportStore } from '../../../server/src/report/sqlite-report-store.ts';
import { openDatabase } from '../../../server/src/storage/sqlite/database.ts';
import { migrations } from '../../../server/src/storage/sqlite/schema.ts';
import { consentMark } from '../../../server/src/tracking-consent/snapshot.ts';
import { tempDataDir } from '../../support/crash.ts';
import { reportStores } from '../../support/report-stores.ts';

const T0 = Date.parse('2026-11-25T10:00:00Z');
const now = () => T0;
const { factories, redis } = reportStores(now);

const fact = (callbackId: string, consent?: NewLeadFact['consent']): NewLeadFact => ({
  callbackId,
  at: T0,
  requestedAs: 'now',
  source: 'google',
  medium: '',
  campaign: '',
  department: '',
  page: '/',
  ...(consent !== undefined && { consent }),
});

describe.each(factories)('lead facts with their consent mark: %s', (_name, make) => {
  it('keeps each mark as given, and none as ""', async () => {
    const store = make();
    for (const mark of ['granted', 'none', 'denied', 'unknown', ''] as const) await store.addLead(fact(`cb-${mark || 'blank'}`, mark));
    await store.addLead(fact('cb-untold'));
    const marks = Object.fromEntries((await store.leads(T0, T0 + 1)).map((f) => [f.callbackId, f.consent]));
    expect(marks).toEqual({ 'cb-granted': 'granted', 'cb-none': 'none', 'cb-denied': 'denied', 'cb-unknown': 'unknown', 'cb-blank': '', 'cb-untold': '' });
  });
});

describe('facts stored before consent marks', () => {
  it('SQLite: a file of schema 8 gains the column, its leads marked ""', async () => {
    const dataDir = tempDataDir();
    const old = openDatabase({ dataDir, migrations: migrations.slice(0, 8) });
    old
      .prepare("INSERT INTO lead_facts (callback_id, at_ms, requested_as, source, medium, campaign, department, page) VALUES ('cb-old', ?, 'now', 'google', '', '', '', '/')")
      .run(T0);
    old.close();
    const store = createSqliteReportStore({ db: openDatabase({ dataDir }), now });
    expect((await store.leads(T0, T0 + 1)).map((f) => [f.callbackId, f.consent])).toEqual([['cb-old', '']]);
  });

  it('Redis: a fact hash without the field, or with a word that is no mark, reads as ""', async () => {
    const connection = redis.fresh();
    const store = createRedisReportStore({ connection, now });
    await store.addLead(fact('cb-old'));
    await store.addLead(fact('cb-odd', 'denied'));
    const space = connection.keyspace('report');
    await connection.run('test', (c) => c.hSet(`${space}lead:cb-odd`, 'consent', 'maybe'));
    expect((await store.leads(T0, T0 + 1)).map((f) => f.consent)).toEqual(['', '']);
  });
});

describe('the mark of a snapshot', () => {
  it('says whether the widget read the cookies, and if not why', () => {
    expect(consentMark({ analytics: 'granted', ads: 'denied', source: 'tcf', cookiesRead: true })).toBe('granted');
    expect(consentMark({ analytics: 'unknown', ads: 'unknown', source: 'none', cookiesRead: true })).toBe('none');
    expect(consentMark({ analytics: 'denied', ads: 'granted', source: 'onetrust', cookiesRead: false })).toBe('denied');
    expect(consentMark({ analytics: 'unknown', ads: 'unknown', source: 'none', cookiesRead: false })).toBe('unknown');
    expect(consentMark(null)).toBe('');
  });
});
