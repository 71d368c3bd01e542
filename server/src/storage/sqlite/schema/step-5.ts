// Schema step 5: callback jobs: the department a call is from. Released: never edit it, add the next step.
import type { Migration } from '../migrations.ts';

export const step5: Migration = {
  version: 5,
  name: 'callback jobs: the department a call is from',
  // Null for every job already here: a relay before departments had one office, which is the
  // first department of a relay that has them now.
  sql: `ALTER TABLE callback_jobs ADD COLUMN department TEXT;`,
};
