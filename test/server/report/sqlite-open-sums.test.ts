// The SQLite report store's sums of each day's opens per dimension and value (dialog_open_sums,
// schema step 9): made from the opens already there when a file is brought to step 9, and kept
// true by triggers through every write of dialog_opens — a count, an erasure merging two groups,
// the pruning of old days, a bulk load that drops and makes them again.
import type { DatabaseSync } from 'node:sqlite';
import { describe, expect, it } from 'vitest';
import { createSqliteReportStore } from '../../../server/src/report/sqlite-report-store.ts';
import { groupValues, REPORT_DIMENSIONS, REPORT_RETENTION_DAYS } from '../../../server/src/report/report-store.ts';
import { openDatabase } from '../../../server/src/storage/sqlite/database.ts';
import { migrations } from '../../../server/src/storage/sqlite/schema.ts';
import { schemaVersion } from '../../../server/src/storage/sqlite/migrations.ts';
import { tempDataDir } from '../../support/crash.ts';

/** The sums as the table holds them, and as dialog_opens says they should be, in one order. */
function sums(db: DatabaseSync) {
  const held = db.prepare('SELECT day, dimension, value, opened FROM dialog_open_sums ORDER BY 1, 2, 3').all();
  const made = db
    .prepare(
      [
        ...REPORT_DIMENSIONS.map((d) => `SELECT day, '${d}' AS dimension, ${d} AS value, SUM(count) AS opened FROM dialog_opens GROUP BY 1, 2, 3`),
        "SELECT day, 'total', '', SUM(count) FROM dialog_opens GROUP BY 1",
      ].join(' UNION ALL ') + ' ORDER BY 1, 2, 3',
    )
    .all();
  return { held, made };
}

describe('the SQLite report store’s sums of a day’s opens', () => {
  it('are made from the opens a file already holds when it is brought to the step that keeps them', () => {
    const dataDir = tempDataDir();
    const before = openDatabase({ dataDir, migrations: migrations.filter((m) => m.version < 9) });
    const insert = before.prepare('INSERT INTO dialog_opens VALUES (?, ?, ?, ?, ?, ?, ?)');
    insert.run('2026-11-24', 'google', 'cpc', 'spring', '', '/sofa', 4);
    insert.run('2026-11-24', 'google', 'cpc', 'spring', '', '/chair', 2);
    insert.run('2026-11-25', 'bing', '', '', 'sales', '/', 1);
    before.close();
    const db = openDatabase({ dataDir });
    expect(schemaVersion(db)).toBeGreaterThanOrEqual(9);
    const { held, made } = sums(db);
    expect(held).toEqual(made);
    expect(held).toContainEqual(expect.objectContaining({ day: '2026-11-24', dimension: 'source', value: 'google', opened: 6 }));
    expect(held).toContainEqual(expect.objectContaining({ day: '2026-11-24', dimension: 'total', value: '', opened: 6 }));
    db.close();
  });

  it('stay true through counting, an erasure that merges two groups, and the pruning of old days', async () => {
    const db = openDatabase({ dataDir: tempDataDir() });
    const now = Date.parse('2026-11-25T10:00:00Z');
    const store = createSqliteReportStore({ db, now: () => now });
    const old = new Date(now - (REPORT_RETENTION_DAYS + 5) * 86_400_000).toISOString().slice(0, 10);
    for (const [day, source, page, n] of [
      ['2026-11-25', 'google', '/sofa', 3],
      ['2026-11-25', 'tg 0501234567', '/', 2],
      ['2026-11-25', 'tg 050 123 45 67', '/', 1],
      ['2026-11-25', 'bing', '/sofa', 1],
      [old, 'google', '/sofa', 2],
    ] as const)
      for (let i = 0; i < n; i++) await store.countOpen(day, groupValues({ source, page, medium: 'cpc' }), 'add');
    await store.countOpen('2026-11-25', groupValues({ source: 'spam' }), 'other');
    expect(sums(db).held).toEqual(sums(db).made);

    const mentions = { digits: '501234567', matches: (value: string) => value.replace(/\D/g, '').includes('501234567') };
    expect(await store.eraseValues(mentions)).toEqual({ leads: 0, opens: 2 });
    expect(sums(db).held).toEqual(sums(db).made);
    expect(sums(db).held).toContainEqual(expect.objectContaining({ day: '2026-11-25', dimension: 'source', value: '(erased)', opened: 3 }));
    expect(sums(db).held.some((r) => String(r.value).includes('050'))).toBe(false);

    // A new lead prunes what is older than the retention: the old day's sums go with its opens.
    await store.addLead({ callbackId: 'a', at: now, requestedAs: 'now', ...groupValues({ source: 'google' }) });
    expect(sums(db).held).toEqual(sums(db).made);
    expect(sums(db).held.some((r) => r.day === old)).toBe(false);
    db.close();
  });
});
