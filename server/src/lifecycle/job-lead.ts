// The lead event of a held call, from its job: what the owner's CRM is told when the call is
// cancelled, placed, missed or failed. Built before the job is finished, while the job still holds
// the full number (the purge empties it once the job is over).
import type { CallbackJob } from './job-store.ts';
import type { LeadEventInput, LeadEventType } from '../webhooks/events.ts';

export function leadOfJob(job: CallbackJob, type: LeadEventType, extra: Pick<LeadEventInput, 'occurrence' | 'reason'> = {}): Omit<LeadEventInput, 'occurredAt'> | null {
  // A purged job has no number left to tell anyone about.
  if (job.request.e164 === null) return null;
  return {
    type,
    callbackId: job.callbackId,
    e164: job.request.e164,
    maskedNumber: job.maskedNumber,
    numberHash: job.numberHash,
    attribution: job.request.attribution,
    pageUrl: job.request.pageUrl,
    origin: job.request.origin,
    locale: job.request.locale,
    requestedAt: job.createdAt,
    scheduledFor: job.kind === 'scheduled' || job.kind === 'redial' ? job.dueAt : null,
    ...extra,
  };
}
