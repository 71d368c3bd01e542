// What handling one claimed job needs (the app, the timing, the clock), and the job's few moves,
// each told to the owner (lead events) before the store finishes the job: the purge empties a
// finished job's number, and the event needs it.
import type { AppContext } from '../app-context.ts';
import type { WatchedRow } from '../outcome/call-log-watch.ts';
import { sameNumber } from '../outcome/accepted-calls.ts';
import type { Logger } from '../log/index.ts';
import type { CallbackJob, CallbackJobKind } from './job-store.ts';
import type { LeadEventType } from '../webhooks/events.ts';
import { writeNotes, type HeldNotes } from './held-notes.ts';
import { leadOfJob } from './job-lead.ts';
import type { HeldTiming } from './held-timing.ts';

/** A step of handling a job, for tests (a kill -9 at that point) and traces. Awaited. */
export type HeldStep = 'placing' | 'placed';

export interface HeldContext {
  app: AppContext;
  timing: HeldTiming;
  now: () => number;
  /** [0, 1): the backoff's jitter. */
  random: () => number;
  onStep?: (step: HeldStep, job: CallbackJob) => void | Promise<void>;
}

/** What the runner read of the call log for this batch; null when it could not be read. */
export type LogRows = readonly WatchedRow[] | null;

/** Clocks differ: a row may be dated a little before the attempt that made it. */
export const ROW_SKEW_MS = 60_000;

/** The rows of calls to or from `digits` dated from `since` on, the closest to `since` first. */
export function rowsOf(rows: readonly WatchedRow[], digits: string, since: number): WatchedRow[] {
  return rows
    .filter((r) => r.calldate.getTime() >= since - ROW_SKEW_MS && (sameNumber(r.dst, digits) || sameNumber(r.caller, digits)))
    .sort((a, b) => Math.abs(a.calldate.getTime() - since) - Math.abs(b.calldate.getTime() - since));
}

/** The destination in international digits, as the service and the call log write it. */
export const digitsOf = (job: CallbackJob): string => (job.request.e164 ?? '').replace(/^\+/, '');

export function jobMoves(ctx: HeldContext, job: CallbackJob, log: Logger) {
  const { app } = ctx;
  const owner = app.relayId;
  const lost = (what: string) => log.warn('held call: lease lost before its step was recorded', { step: what });
  const count = (outcome: string) => app.metrics.heldCalls.inc({ kind: job.kind, outcome });

  /** The visitor's booked time: kept in the notes once the job is no longer 'scheduled' (a following or re-dial job's due time is not a booking). */
  const scheduledFor = (notes: HeldNotes) => notes.scheduledFor ?? (job.kind === 'scheduled' ? job.dueAt : null);
  async function announce(type: LeadEventType, notes: HeldNotes, extra: { occurrence?: number; reason?: string } = {}): Promise<void> {
    const lead = leadOfJob(job, type, extra);
    if (lead) await app.leads.announce({ ...lead, scheduledFor: scheduledFor(notes) });
  }

  return {
    count,
    announce,
    async reschedule(dueAt: number, notes: HeldNotes, kind?: CallbackJobKind): Promise<void> {
      const at = Math.max(dueAt, ctx.now() + 1000);
      if (!(await app.stores.jobs.reschedule(job.callbackId, owner, at, ctx.now(), kind, writeNotes(notes)))) lost('reschedule');
    },
    async complete(outcome: string): Promise<void> {
      if (!(await app.stores.jobs.complete(job.callbackId, owner, outcome, ctx.now()))) lost('complete');
    },
    /** The call cannot be placed: the owner is told (callback.failed), then the job is over. */
    async fail(reason: string, notes: HeldNotes): Promise<void> {
      log.warn('held call failed', { reason });
      await announce('callback.failed', notes, { reason });
      count('failed');
      if (!(await app.stores.jobs.fail(job.callbackId, owner, reason, ctx.now()))) lost('fail');
    },
  };
}

export type JobMoves = ReturnType<typeof jobMoves>;
