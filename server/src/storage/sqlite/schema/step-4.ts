// Schema step 4: consent records: whether the box was ticked, and the privacy notice linked. Released: never edit it, add the next step.
import type { Migration } from '../migrations.ts';

export const step4: Migration = {
  version: 4,
  name: 'consent records: whether the box was ticked, and the privacy notice linked',
  // Until this step a record was written only for a visitor who had ticked the box, so every
  // row already here is one of a ticked box; none knew of a privacy notice (null). No DEFAULT on
  // consented: a new row must say it, never inherit a "yes".
  sql: `
    ALTER TABLE consent ADD COLUMN consented INTEGER CHECK (consented IN (0, 1));
    UPDATE consent SET consented = 1;
    ALTER TABLE consent ADD COLUMN privacy_url TEXT;
  `,
};
