// The embedded store (DATA_DIR, DATA_RETENTION_DAYS): where the SQLite file lives and how long
// records without a full number are kept. Used when REDIS_URL is unset.
import type { EnvReader } from './env.ts';

export interface StoreSettings {
  /** Where dialback.sqlite lives (created at startup). */
  dataDir: string;
  /** How long records without a full number are kept, in days (in Redis too). */
  retentionDays: number;
}

export function readStore(env: EnvReader): StoreSettings {
  return {
    dataDir: env.text('DATA_DIR') ?? './data',
    retentionDays: env.duration('DATA_RETENTION_DAYS', 1, 3650) ?? 30,
  };
}
