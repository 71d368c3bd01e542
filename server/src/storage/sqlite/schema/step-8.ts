// Schema step 8: the lead report: leads found by their group. Released: never edit it, add the next step.
import type { Migration } from '../migrations.ts';

export const step8: Migration = {
  version: 8,
  name: 'the lead report: leads found by their group',
  // A group with a recent lead always has room for its opens (report/report-store.ts,
  // LEAD_GROUP_DAYS): a day's new open group asks this index once, whatever the number of leads.
  sql: `CREATE INDEX lead_facts_by_group ON lead_facts (source, medium, campaign, department, page, at_ms);`,
};
