// Callback jobs as `npm run store -- move` carries them between stores (storage/record-set.ts):
// the job as the store reads it, with the SHA-256 of its cancel token (the token itself was never
// stored). A pending job is carried whatever its age, with its lease as it was (a job its relay
// died holding stays "interrupted" on the other side: the call log is read before ringing again);
// a finished one only while DATA_RETENTION_DAYS after it finished have not passed.
import type { CallbackJob } from '../job-store.ts';

export interface MovedJob extends CallbackJob {
  /** SHA-256 (hex) of the cancel token given to the visitor; null when none was. */
  cancelHash: string | null;
}

const DAY_MS = 86_400_000;

/** When a finished job is deleted (ms); null while it is pending. */
export const jobExpiresAt = (job: CallbackJob, retentionDays: number): number | null => (job.state === 'pending' ? null : job.updatedAt + retentionDays * DAY_MS);

export function jobKept(job: CallbackJob, retentionDays: number, nowMs: number): boolean {
  const expires = jobExpiresAt(job, retentionDays);
  return expires === null || expires > nowMs;
}
