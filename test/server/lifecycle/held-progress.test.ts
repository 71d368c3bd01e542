// The progress of a held call read from its job alone (another relay placed it, or this one
// restarted): the job runner's notes and outcomes say what became of it.
import { describe, expect, it } from 'vitest';
import { writeNotes } from '../../../server/src/lifecycle/held-notes.ts';
import { progressOfJob } from '../../../server/src/lifecycle/held-progress.ts';
import type { CallbackJob } from '../../../server/src/lifecycle/job-store.ts';

const T0 = Date.parse('2026-11-23T08:00:00Z');
const job = (over: Partial<CallbackJob>): CallbackJob => ({
  callbackId: 'cb',
  kind: 'scheduled',
  state: 'pending',
  dueAt: T0,
  request: { e164: '+380501234567', attribution: {}, clientIp: '203.0.113.9', userAgent: null, origin: 'https://shop.example', pageUrl: null, locale: null },
  numberHash: 'h',
  maskedNumber: '+380 50 *** **67',
  attempts: 0,
  leaseOwner: null,
  leaseExpiresAt: null,
  interrupted: false,
  outcome: null,
  notes: null,
  createdAt: T0,
  updatedAt: T0,
  ...over,
});

describe('progress of a held call from its job', () => {
  it('a placed call being followed is accepted (the widget keeps asking); a re-dial waiting is redial with its time', () => {
    expect(progressOfJob(job({ kind: 'redial', notes: writeNotes({ last: { at: T0, result: 'placed' } }) }))).toMatchObject({
      outcome: 'accepted',
      pollAfterMs: expect.any(Number),
    });
    expect(progressOfJob(job({ kind: 'redial', dueAt: T0 + 300_000, notes: writeNotes({ redials: 1 }) }))).toMatchObject({
      outcome: 'redial',
      scheduledFor: new Date(T0 + 300_000).toISOString(),
    });
  });

  it('an ended call says how it ended when the call log showed it', () => {
    expect(progressOfJob(job({ state: 'completed', outcome: 'answered' }))).toEqual({ requestId: 'cb', outcome: 'completed' });
    expect(progressOfJob(job({ state: 'completed', outcome: 'missed' }))).toEqual({ requestId: 'cb', outcome: 'missed' });
    expect(progressOfJob(job({ state: 'completed', outcome: 'placed' }))).toEqual({ requestId: 'cb', outcome: 'unknown' });
    expect(progressOfJob(job({ state: 'failed', outcome: 'upstream_rejected' }))).toEqual({ requestId: 'cb', outcome: 'failed' });
  });
});
