// A held job as the request path stores it (held-job.ts), for tests and benchmarks: no test
// runner here, so a benchmark can make them too.
import { createHmac } from 'node:crypto';
import { NO_PROGRESS, type JobProgress, type NewCallbackJob } from '../../server/src/callback/job-store.ts';
import type { RequestedAs, WaitingStage } from '../../server/src/callback/stages.ts';
import { ORIGIN } from './post-callback.ts';

export const HASH_SECRET = 'held-calls-test-hash-secret-0123456789';

/** How a job in each stage came in, for heldJobFor: a booking, unless it was held while the service was down. */
const REQUESTED_AS: Record<WaitingStage, RequestedAs> = { scheduled: 'scheduled', queued: 'queued', checking: 'scheduled', following: 'scheduled', redial: 'scheduled' };

/**
 * A held job for `e164` in `stage` as the request path stores it (held-job.ts), with its cancel
 * token `cancel-<callbackId>`; `progress` adds what the job remembers (a booking remembers its time).
 */
export function heldJobFor(e164: string, stage: WaitingStage, dueAt: number, callbackId: string = crypto.randomUUID(), progress: Partial<JobProgress> = {}): NewCallbackJob {
  const requestedAs = REQUESTED_AS[stage];
  return {
    callbackId,
    requestedAs,
    stage,
    dueAt,
    progress: {
      ...NO_PROGRESS,
      ...(requestedAs === 'scheduled' && { scheduledFor: dueAt }),
      ...(requestedAs === 'queued' && { queuedAt: dueAt }),
      ...progress,
    },
    numberHash: createHmac('sha256', HASH_SECRET).update(e164).digest('hex'),
    maskedNumber: `${e164.slice(0, 6)} *** **${e164.slice(-2)}`,
    cancelToken: `cancel-${callbackId}`,
    request: {
      e164,
      attribution: { utmSource: 'google', utmCampaign: 'sofa', clientId: '1907690628.1747750782' },
      clientIp: '203.0.113.9',
      userAgent: 'Mozilla/5.0 (held-test)',
      origin: ORIGIN,
      pageUrl: 'https://shop.example/sofa',
      locale: 'uk',
    },
  };
}
