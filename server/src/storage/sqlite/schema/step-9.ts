// Schema step 9: the report's sums of each day's opens per dimension and value, beside
// dialog_opens, so a report reads a day's first groups as a range of an index instead of grouping
// the day's rows (5,000 of a flooded day). Triggers keep the sums, so every writer of dialog_opens
// (counting, erasure, pruning, a restore or a move) keeps them true without knowing of them. The
// day's total is the row ('total', ''). Never edit this step: add the next one.
import type { Migration } from '../migrations.ts';

const SUMS: ReadonlyArray<[string, (row: string) => string]> = [
  ...['source', 'medium', 'campaign', 'department', 'page'].map((d): [string, (row: string) => string] => [`'${d}'`, (row) => `${row}.${d}`]),
  ["'total'", () => "''"],
];

/** Adds `amount` to every sum of the group in `row` (new or old). */
const add = (row: string, amount: string) =>
  SUMS.map(
    ([dimension, value]) => `INSERT INTO dialog_open_sums VALUES (${row}.day, ${dimension}, ${value(row)}, ${amount}) ON CONFLICT DO UPDATE SET opened = opened + excluded.opened;`,
  ).join('\n');

/** Drops the sums of the group in `row` that came to nothing. */
const dropEmpty = (row: string) =>
  SUMS.map(([dimension, value]) => `DELETE FROM dialog_open_sums WHERE day = ${row}.day AND dimension = ${dimension} AND value = ${value(row)} AND opened <= 0;`).join('\n');

const SAME_GROUP = ['day', 'source', 'medium', 'campaign', 'department', 'page'].map((c) => `old.${c} = new.${c}`).join(' AND ');

/** Every sum made again from dialog_opens: the migration's start, and a bulk load's end. */
export const FILL_OPEN_SUMS = [
  'DELETE FROM dialog_open_sums;',
  ...SUMS.map(([dimension, value]) => `INSERT INTO dialog_open_sums SELECT day, ${dimension}, ${value('dialog_opens')}, SUM(count) FROM dialog_opens GROUP BY 1, 2, 3;`),
].join('\n');

const TRIGGERS: ReadonlyArray<[string, string]> = [
  ['dialog_open_sums_insert', `AFTER INSERT ON dialog_opens BEGIN ${add('new', 'new.count')} END;`],
  ['dialog_open_sums_count', `AFTER UPDATE ON dialog_opens WHEN ${SAME_GROUP} BEGIN ${add('new', 'new.count - old.count')} ${dropEmpty('new')} END;`],
  ['dialog_open_sums_move', `AFTER UPDATE ON dialog_opens WHEN NOT (${SAME_GROUP}) BEGIN ${add('old', '-old.count')} ${dropEmpty('old')} ${add('new', 'new.count')} END;`],
  ['dialog_open_sums_delete', `AFTER DELETE ON dialog_opens BEGIN ${add('old', '-old.count')} ${dropEmpty('old')} END;`],
];
export const CREATE_OPEN_SUMS_TRIGGERS = TRIGGERS.map(([name, body]) => `CREATE TRIGGER ${name} ${body}`).join('\n');
/** For a bulk load of dialog_opens (a test's year of data, a move between stores): drop, load, FILL_OPEN_SUMS, create again. */
export const DROP_OPEN_SUMS_TRIGGERS = TRIGGERS.map(([name]) => `DROP TRIGGER ${name};`).join('\n');

export const step9: Migration = {
  version: 9,
  name: 'the lead report: each day’s opens summed per dimension and value',
  sql: `
    CREATE TABLE dialog_open_sums (
      day TEXT NOT NULL,
      dimension TEXT NOT NULL,
      value TEXT NOT NULL,
      opened INTEGER NOT NULL,
      PRIMARY KEY (day, dimension, value)
    ) STRICT, WITHOUT ROWID;
    CREATE INDEX dialog_open_sums_top ON dialog_open_sums (day, dimension, opened DESC, value);
    ${FILL_OPEN_SUMS}
    ${CREATE_OPEN_SUMS_TRIGGERS}
  `,
};
