// The embedded store's settings (design.md §5). config.ts spreads `storeEnv` into its schema table,
// so a bad value stops startup with the variable's name like every other setting.
import { z } from 'zod';
import { wholeNumber } from './env-number.ts';

export const storeEnv = {
  DATA_DIR: z.string().min(1, 'expected a directory for the SQLite file').default('./data'),
  DATA_RETENTION_DAYS: wholeNumber(1, 3650).default(30),
} satisfies Record<string, z.ZodType>;

type StoreEnv = { [K in keyof typeof storeEnv]: z.output<(typeof storeEnv)[K]> };

export interface StoreSettings {
  /** Where dialback.sqlite lives (created at startup). */
  dataDir: string;
  /** How long records without a full number are kept, in days. */
  retentionDays: number;
}

export function storeSettings(e: StoreEnv): StoreSettings {
  return { dataDir: e.DATA_DIR, retentionDays: e.DATA_RETENTION_DAYS };
}
