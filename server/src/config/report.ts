// The lead report (`/owner/api/report`): how long a call must have talked to count as a
// conversation (REPORT_TALK_SECONDS; CallPage counts a call as successful past 10 s).
import type { EnvReader } from './env.ts';

export interface ReportSettings {
  /** An answered call with at least this many seconds of talk (the call log's billsec) counts as talked. */
  talkSeconds: number;
}

export function readReport(env: EnvReader): ReportSettings {
  return { talkSeconds: env.duration('REPORT_TALK_SECONDS', 0, 3600) ?? 10 };
}
