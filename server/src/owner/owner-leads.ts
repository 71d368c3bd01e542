// The owner view's pending leads: calls held for later (booked, held while the service was
// unreachable, waiting to be re-dialled) and the ones that failed in the last week, which the
// owner should call back by hand. Masked numbers and attribution only: the full number goes to the
// owner's CRM through the signed lead webhook, never to a browser. Visitor values are one clean line
// and the page an http(s) page of the lead's origin (visitor-text/), whatever an older relay stored.
import type { ConsentSource } from '../contract/contract.ts';
import type { CallbackJob, CallbackJobStore } from '../callback/job-store.ts';
import { isCancellable } from '../callback/stages.ts';
import { oneLine } from '../visitor-text/one-line.ts';
import { pageOfOrigin } from '../visitor-text/page-url.ts';
import { consentMark, storedConsent, type ConsentMark } from '../tracking-consent/snapshot.ts';

const SHOWN = 200;
const FAILED_FOR_MS = 7 * 86_400_000;

export interface OwnerLead {
  callbackId: string;
  /** What the lead is waiting for, or how it ended (callback/stages.ts). */
  stage: CallbackJob['stage'];
  /** How it came in: a call now, a booking, or a call held while the service was unreachable. */
  requestedAs: CallbackJob['requestedAs'];
  /** Whether the owner may still cancel it: not once its call has been placed. */
  cancellable: boolean;
  state: CallbackJob['state'];
  /** When it will be placed (pending), or when it failed. */
  at: string;
  requestedAt: string;
  number: string;
  utmSource: string | null;
  utmMedium: string | null;
  utmCampaign: string | null;
  clientId: string | null;
  /** Whether the widget read the tracking cookies, and if not why: a missing client id explained (tracking-consent/). */
  consent: ConsentMark;
  /** Where the visitor's consent came from (a consent platform, dialback('consent'), none); null when not told. */
  consentSource: ConsentSource | null;
  pageUrl: string | null;
  origin: string;
  attempts: number;
  /** Why it failed (an error code, queue_expired, …). */
  reason: string | null;
  /** The department the call is from; only with DEPARTMENTS_FILE. */
  department?: string;
}

const iso = (ms: number) => new Date(ms).toISOString();
const shown = (value: string | undefined) => (value === undefined ? null : oneLine(value, 200) || null);

function ownerLead(job: CallbackJob): OwnerLead {
  const a = job.request.attribution;
  const consent = storedConsent(job.request.trackingConsent);
  return {
    callbackId: job.callbackId,
    stage: job.stage,
    requestedAs: job.requestedAs,
    cancellable: isCancellable(job.stage),
    state: job.state,
    at: iso(job.state === 'pending' ? job.dueAt : job.updatedAt),
    requestedAt: iso(job.createdAt),
    number: job.maskedNumber,
    utmSource: shown(a.utmSource),
    utmMedium: shown(a.utmMedium),
    utmCampaign: shown(a.utmCampaign),
    clientId: shown(a.clientId),
    consent: consentMark(consent),
    consentSource: consent?.source ?? null,
    pageUrl: pageOfOrigin(job.request.pageUrl, job.request.origin).url,
    origin: job.request.origin,
    attempts: job.attempts,
    reason: job.state === 'failed' ? job.outcome : null,
    ...(job.request.department && { department: oneLine(job.request.department, 60) }),
  };
}

export async function ownerLeads(app: {
  stores: { jobs: Pick<CallbackJobStore, 'listPending' | 'listFailed'> };
  now: () => Date;
}): Promise<{ pending: OwnerLead[]; failed: OwnerLead[] }> {
  const now = app.now().getTime();
  const [pending, failed] = await Promise.all([app.stores.jobs.listPending(SHOWN), app.stores.jobs.listFailed(now - FAILED_FOR_MS, SHOWN)]);
  return { pending: pending.map(ownerLead), failed: failed.map(ownerLead) };
}
