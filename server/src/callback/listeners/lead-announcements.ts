// Which steps of a callback's life the owner's CRM hears of (the signed lead webhook), and what it
// is told: a call booked, held while the service was unreachable, placed by the relay later,
// missed, failed or cancelled. A call the service took at once is in the service's own call log
// already, so its placement is not announced; its miss is.
import type { LeadAnnouncer } from '../../webhooks/lead-events.ts';
import type { LeadEventInput } from '../../webhooks/events.ts';
import { leadEventType } from '../stages.ts';
import type { LifecycleEvent } from '../lifecycle.ts';

/** The lead event of a step, or null when the CRM is not told of it. */
export function leadEventOf(event: LifecycleEvent): Omit<LeadEventInput, 'occurredAt'> | null {
  const { job, from, to, step } = event;
  // A purged job has no number left to tell anyone about.
  if (job.request.e164 === null) return null;
  const type = leadEventType(from, to, job.requestedAs);
  if (type === null) return null;
  let extra: Pick<LeadEventInput, 'occurrence' | 'reason'> = {};
  if (type === 'callback.placed') extra = { occurrence: 'progress' in step ? step.progress.redials : job.progress.redials };
  else if (type === 'callback.missed') extra = { occurrence: job.progress.redials, reason: 'no_answer' };
  else if (type === 'callback.failed') extra = { reason: 'outcome' in step ? step.outcome : null };
  return {
    type,
    callbackId: job.callbackId,
    e164: job.request.e164,
    maskedNumber: job.maskedNumber,
    numberHash: job.numberHash,
    attribution: job.request.attribution,
    trackingConsent: job.request.trackingConsent,
    pageUrl: job.request.pageUrl,
    origin: job.request.origin,
    locale: job.request.locale,
    ...(job.request.department && { department: job.request.department }),
    requestedAt: job.createdAt,
    // A booking's time; a re-dial's, when one waiting is cancelled.
    scheduledFor: job.progress.scheduledFor ?? (to === 'cancelled' && from === 'redial' ? job.dueAt : null),
    ...extra,
  };
}

export function announceLeads(leads: LeadAnnouncer): (event: LifecycleEvent) => Promise<void> {
  return async (event) => {
    const lead = leadEventOf(event);
    if (lead) await leads.announce({ ...lead, occurredAt: event.at });
  };
}
