// The owner view's leads of a period (`/owner/api/leads?from=…&to=…`): every lead the report
// knows of in those project-local days, newest first, with its state. The report's fact gives how
// it came and ended; the job, while it is kept, its stage, masked number, client id and the visitor's
// tracking consent that explains a missing one (tracking-consent/). Masked numbers only;
// visitor values one clean line (visitor-text/), whatever an older relay stored.
import type { ConsentSource } from '../contract/contract.ts';
import type { CallbackJob, CallbackJobStore } from '../callback/job-store.ts';
import { isCancellable, mayCallBack, stateOf, type JobState } from '../callback/stages.ts';
import type { Period } from '../report/report-query.ts';
import type { LeadFact, ReportStore } from '../report/report-store.ts';
import { consentMark, storedConsent, type ConsentMark } from '../tracking-consent/snapshot.ts';
import { oneLine } from '../visitor-text/one-line.ts';

const SHOWN = 1000;

export interface PeriodLead {
  callbackId: string;
  requestedAs: LeadFact['requestedAs'];
  requestedAt: string;
  /** The job's stage while the job is kept; else how the lead ended ('placed' when the service took it and nothing more is known). */
  stage: string;
  state: JobState;
  number: string | null;
  utmSource: string | null;
  utmMedium: string | null;
  utmCampaign: string | null;
  /** The client id, while the job is kept (the report's fact keeps none). */
  clientId: string | null;
  /** Whether the widget read the tracking cookies, and if not why, while the job is kept ('' after, or from a widget before it). */
  consent: ConsentMark;
  /** Where the visitor's consent came from, while the job is kept; null when not known. */
  consentSource: ConsentSource | null;
  department: string | null;
  page: string | null;
  placed: boolean;
  outcome: LeadFact['outcome'];
  talkSeconds: number | null;
  answerSeconds: number | null;
  cancellable: boolean;
  /** "Call back now" applies: the lead was missed or failed, and its number is still known. */
  canCallBack: boolean;
}

const orNull = (v: string) => oneLine(v, 200) || null;

function periodLead(f: LeadFact, job: CallbackJob | undefined): PeriodLead {
  const stage = job?.stage ?? f.outcome ?? (f.placed ? 'placed' : 'requested');
  const state = job?.state ?? (f.outcome === null ? 'pending' : stateOf(f.outcome));
  const ended = f.outcome ?? job?.stage;
  const consent = storedConsent(job?.request.trackingConsent);
  return {
    callbackId: f.callbackId,
    requestedAs: f.requestedAs,
    requestedAt: new Date(f.at).toISOString(),
    stage,
    state,
    number: job?.maskedNumber ?? null,
    utmSource: orNull(f.source),
    utmMedium: orNull(f.medium),
    utmCampaign: orNull(f.campaign),
    clientId: job?.request.attribution.clientId ? orNull(job.request.attribution.clientId) : null,
    consent: consentMark(consent),
    consentSource: consent?.source ?? null,
    department: orNull(f.department),
    page: orNull(f.page),
    placed: f.placed,
    outcome: f.outcome,
    talkSeconds: f.talkSeconds,
    answerSeconds: f.answerSeconds,
    cancellable: job !== undefined && isCancellable(job.stage),
    canCallBack: ended !== undefined && job !== undefined && mayCallBack(ended, job.attempts),
  };
}

export async function periodLeads(
  app: { stores: { report: Pick<ReportStore, 'newestLeads'>; jobs: Pick<CallbackJobStore, 'get'> } },
  period: Period,
): Promise<{ leads: PeriodLead[]; truncated: boolean }> {
  // The store reads the newest SHOWN (and one more, to tell there are more), never the whole period.
  const facts = await app.stores.report.newestLeads(period.fromMs, period.toMs, SHOWN + 1);
  const shown = facts.slice(0, SHOWN);
  const jobs = await Promise.all(shown.map((f) => app.stores.jobs.get(f.callbackId)));
  return { leads: shown.map((f, i) => periodLead(f, jobs[i])), truncated: facts.length > SHOWN };
}
