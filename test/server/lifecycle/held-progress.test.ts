// The progress of a held call read from its job alone (another relay placed it, or this one
// restarted): the job's stage and progress say what became of it.
import { describe, expect, it } from 'vitest';
import { progressOfJob } from '../../../server/src/callback/progress/held-progress.ts';
import { NO_PROGRESS, type CallbackJob } from '../../../server/src/callback/job-store.ts';
import { stateOf } from '../../../server/src/callback/stages.ts';

const T0 = Date.parse('2026-11-23T08:00:00Z');
const job = (over: Partial<CallbackJob>): CallbackJob => {
  const stage = over.stage ?? 'scheduled';
  return {
    callbackId: 'cb',
    requestedAs: 'scheduled',
    stage,
    state: stateOf(stage),
    dueAt: T0,
    request: { e164: '+380501234567', attribution: {}, clientIp: '203.0.113.9', userAgent: null, origin: 'https://shop.example', pageUrl: null, locale: null },
    numberHash: 'h',
    maskedNumber: '+380 50 *** **67',
    cancellable: true,
    attempts: 0,
    leaseOwner: null,
    leaseExpiresAt: null,
    interrupted: false,
    outcome: null,
    progress: { ...NO_PROGRESS },
    createdAt: T0,
    updatedAt: T0,
    ...over,
  };
};

describe('progress of a held call from its job', () => {
  it('a placed call being followed is accepted (the widget keeps asking); a re-dial waiting is redial with its time', () => {
    expect(progressOfJob(job({ stage: 'following', progress: { ...NO_PROGRESS, lastAttemptAt: T0 } }))).toMatchObject({
      outcome: 'accepted',
      pollAfterMs: expect.any(Number),
    });
    expect(progressOfJob(job({ stage: 'redial', dueAt: T0 + 300_000, progress: { ...NO_PROGRESS, redials: 1 } }))).toMatchObject({
      outcome: 'redial',
      scheduledFor: new Date(T0 + 300_000).toISOString(),
    });
  });

  it('a booked call is scheduled with its time; a held one is queued', () => {
    expect(progressOfJob(job({ stage: 'scheduled', dueAt: T0 + 60_000 }))).toMatchObject({ outcome: 'scheduled', scheduledFor: new Date(T0 + 60_000).toISOString() });
    expect(progressOfJob(job({ stage: 'queued' }))).toMatchObject({ outcome: 'queued', pollAfterMs: expect.any(Number) });
  });

  it('an attempt whose outcome the call log is checking may be ringing: accepted, and the widget keeps asking', () => {
    expect(progressOfJob(job({ stage: 'checking', progress: { ...NO_PROGRESS, lastAttemptAt: T0 } }))).toMatchObject({ outcome: 'accepted', pollAfterMs: expect.any(Number) });
    // A retry decided after an unknown outcome, waiting for the office to open: held.
    expect(progressOfJob(job({ stage: 'checking', progress: { ...NO_PROGRESS, retriedUnknown: true } }))).toMatchObject({ outcome: 'queued' });
  });

  it('an ended call says how it ended when the call log showed it', () => {
    expect(progressOfJob(job({ stage: 'answered', outcome: 'answered' }))).toEqual({ requestId: 'cb', outcome: 'completed' });
    expect(progressOfJob(job({ stage: 'missed', outcome: 'missed' }))).toEqual({ requestId: 'cb', outcome: 'missed' });
    expect(progressOfJob(job({ stage: 'ended', outcome: 'placed' }))).toEqual({ requestId: 'cb', outcome: 'unknown' });
    expect(progressOfJob(job({ stage: 'failed', outcome: 'upstream_rejected' }))).toEqual({ requestId: 'cb', outcome: 'failed' });
    expect(progressOfJob(job({ stage: 'cancelled' }))).toEqual({ requestId: 'cb', outcome: 'cancelled' });
  });
});
