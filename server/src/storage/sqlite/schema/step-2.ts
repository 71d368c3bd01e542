// Schema step 2: callback job notes: what the placer remembers between attempts. Released: never edit it, add the next step.
import type { Migration } from '../migrations.ts';

export const step2: Migration = {
  version: 2,
  name: 'callback job notes: what the placer remembers between attempts',
  sql: `ALTER TABLE callback_jobs ADD COLUMN notes TEXT;`,
};
