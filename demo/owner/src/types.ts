// What the owner API answers: the relay's own types (type-only imports: no server code is bundled).
import type { ReportDimension } from '../../../server/src/report/report-query.ts';

export type { OwnerCalls, OwnerCall } from '../../../server/src/owner/owner-calls.ts';
export type { OwnerLead } from '../../../server/src/owner/owner-leads.ts';
export type { PeriodLead } from '../../../server/src/owner/period-leads.ts';
export type { LeadReport, ReportGroup } from '../../../server/src/report/lead-report.ts';

export interface OwnerAgents {
  agents: Array<{ login: string; online: boolean; speaking: boolean; free: boolean }>;
  online: number;
  speaking: number;
  free: number;
  source: string;
  fetchedAt: string;
}

/** The days a report and its leads are asked for (`from`, `to`: YYYY-MM-DD, both included). */
export interface Period {
  from: string;
  to: string;
}

/** The page's fixed facts: the project's time zone and its today (by the relay's clock). */
export interface OwnerViewFacts {
  timeZone: string;
  today: string;
}

// The groupings the relay's report takes (report/report-query.ts); a value list of its own here, so
// that no server module is bundled into the page.
export const REPORT_BY = ['source', 'medium', 'campaign', 'department', 'page'] as const satisfies readonly ReportDimension[];
export type ReportBy = ReportDimension;
