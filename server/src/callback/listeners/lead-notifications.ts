// Which steps of a callback's life a person hears of (webhooks/notify/), and what the daily digest
// counts. A person is told of a lead nobody answered after its re-dials (missed: the final miss,
// not one with a re-dial still to come), one that failed, one booked for later and one held
// through an outage (NOTIFY_ON picks among them). The digest keeps every lead's standing: pending
// while it waits (a re-dial included), then answered, missed, failed, or other.
import { pageOfOrigin } from '../../visitor-text/page-url.ts';
import type { LeadNotice } from '../../webhooks/notify/notice.ts';
import type { Notifier } from '../../webhooks/notify/notifier.ts';
import type { CallbackJob } from '../job-store.ts';
import type { LifecycleEvent } from '../lifecycle.ts';
import { answeredInRequest, digestStanding, noticeKind } from '../stages.ts';

/** The department the visitor chose, once jobs carry one; null on a site with one department. */
function departmentOf(job: CallbackJob): string | null {
  const d = (job as { department?: unknown }).department ?? (job.request as { department?: unknown }).department;
  return typeof d === 'string' && d !== '' ? d : null;
}

/** The notice of a step, or null when no person is told of it. */
export function leadNoticeOf(event: LifecycleEvent): LeadNotice | null {
  const { job, from, to, step } = event;
  // A purged job has no number left to tell anyone.
  if (job.request.e164 === null) return null;
  const kind = noticeKind(from, to);
  if (kind === null) return null;
  return {
    kind,
    callbackId: job.callbackId,
    at: event.at,
    e164: job.request.e164,
    maskedNumber: job.maskedNumber,
    numberHash: job.numberHash,
    department: departmentOf(job),
    attribution: job.request.attribution,
    // Only an http(s) page of the site it came from, whatever an older relay stored.
    pageUrl: pageOfOrigin(job.request.pageUrl, job.request.origin).url,
    scheduledFor: kind === 'scheduled' ? (job.progress.scheduledFor ?? job.dueAt) : null,
    reason: kind === 'failed' && 'outcome' in step ? step.outcome : null,
  };
}

export function notifyLeads(notifier: Notifier): (event: LifecycleEvent) => Promise<void> {
  return async (event) => {
    const { job } = event;
    // A call now the service refused: its visitor was told in the answer; the report alone counts it.
    if (answeredInRequest(event.from, event.to)) return;
    await notifier.tally({ callbackId: job.callbackId, createdAt: job.createdAt, utmSource: job.request.attribution.utmSource ?? null, outcome: digestStanding(event.to) });
    const notice = leadNoticeOf(event);
    if (notice) await notifier.tell(notice);
  };
}
