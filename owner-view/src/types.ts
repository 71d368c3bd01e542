// What the owner API answers. The relay's own types where they exist; the report's shape as the
// relay's /owner/api/report documents it (docs/operations.md, "Owner view").
export type { OwnerCalls, OwnerCall } from '../../server/src/owner/owner-calls.ts';
export type { OwnerLead } from '../../server/src/owner/owner-leads.ts';

export interface OwnerAgents {
  agents: Array<{ login: string; online: boolean; speaking: boolean; free: boolean }>;
  online: number;
  speaking: number;
  free: number;
  source: string;
  fetchedAt: string;
}

/** The page's fixed facts: the project's time zone and its today (by the relay's clock). */
export interface OwnerViewFacts {
  timeZone: string;
  today: string;
}

export const REPORT_BY = ['source', 'medium', 'campaign', 'department', 'page'] as const;
export type ReportBy = (typeof REPORT_BY)[number];

export interface FunnelCounts {
  opened: number;
  requested: number;
  placed: number;
  answered: number;
  talked: number;
  missed: number;
  failed: number;
}

export interface ReportGroup extends FunnelCounts {
  key: string;
  medianAnswerSeconds: number | null;
}

export interface LeadReport {
  from: string;
  to: string;
  by: ReportBy;
  timeZone: string;
  talkSeconds: number;
  groups: ReportGroup[];
  totals: Omit<ReportGroup, 'key'> & { key?: string };
  days: Array<FunnelCounts & { date: string }>;
}
