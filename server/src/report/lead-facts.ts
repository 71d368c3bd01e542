// How the lead report learns of leads: from the lifecycle's events, for every lead (a call now, held,
// booked, or the owner's call-back: each is a job). Each event writes one small fact; a fact told
// twice (at least once) is written once.
import type { CallbackJob } from '../callback/job-store.ts';
import type { LifecycleEvent, LifecycleListener } from '../callback/lifecycle.ts';
import { isPlacement, reportEnd } from '../callback/stages.ts';
import type { Logger } from '../log/index.ts';
import { consentMark, storedConsent } from '../tracking-consent/snapshot.ts';
import { groupValues, pagePath, type LeadSource, type NewLeadFact, type ReportStore } from './report-store.ts';

/** The fact a new lead starts as: its attribution, page, department and consent mark, no number. */
export function newLeadFact(job: Pick<CallbackJob, 'callbackId' | 'request'> & { requestedAs: LeadSource }, at: number, department?: string | null): NewLeadFact {
  const a = job.request.attribution;
  return {
    callbackId: job.callbackId,
    at,
    requestedAs: job.requestedAs,
    // An owner's call-back carries its lead's request: its attribution, and the consent that explains it.
    consent: consentMark(storedConsent(job.request.trackingConsent)),
    ...groupValues({ source: a.utmSource, medium: a.utmMedium, campaign: a.utmCampaign, department: department ?? null, page: pagePath(job.request.pageUrl) }),
  };
}

/** Seconds from the request (a booking: its booked time, when that is later) to the start of talk. */
function answerSeconds(job: CallbackJob, talkStartedAt: number): number {
  const from = Math.max(job.createdAt, job.progress.scheduledFor ?? 0);
  return Math.max(0, Math.round((talkStartedAt - from) / 100) / 10);
}

async function record(report: ReportStore, event: LifecycleEvent): Promise<void> {
  const { job, to, step } = event;
  if (event.from === null) await report.addLead(newLeadFact(job, job.createdAt, job.request.department));
  if (isPlacement(to)) await report.markPlaced(job.callbackId);
  const end = reportEnd(to);
  if (end !== null) {
    const call = 'call' in step && step.call ? { answerSeconds: answerSeconds(job, step.call.talkStartedAt), talkSeconds: step.call.talkSeconds } : null;
    await report.finish(job.callbackId, end, call);
  }
}

/** The lifecycle listener that keeps the report's facts. A store failure costs a count, never a step. */
export function recordLeadFacts(report: ReportStore, log: Logger): LifecycleListener {
  return async (event) => {
    try {
      await record(report, event);
    } catch (err) {
      log.warn('lead report: fact not recorded', { err, callbackId: event.callbackId, to: event.to });
    }
  };
}
