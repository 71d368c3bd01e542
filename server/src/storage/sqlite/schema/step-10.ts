// Schema step 10: the lead report: each lead's consent mark. Released: never edit it, add the next step.
import type { Migration } from '../migrations.ts';

export const step10: Migration = {
  version: 10,
  name: "the lead report: each lead's consent mark",
  // Whether the widget read the tracking cookies (tracking-consent/snapshot.ts); '' for every lead
  // already here: nothing told it then.
  sql: `ALTER TABLE lead_facts ADD COLUMN consent TEXT NOT NULL DEFAULT '';`,
};
