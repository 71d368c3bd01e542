// CallbackJobStore in memory, for tests and benchmarks (the relay's default is the SQLite store).
import { cancelVerdict, hashCancelToken, requestIn, storedJob, type CallbackJob, type CallbackJobStore } from '../job-store.ts';
import { stateOf } from '../stages.ts';

interface Held {
  job: CallbackJob;
  cancelHash: string | null;
}

/** The memory job store, with what a visitor's data on request needs (number-data/memory-number-records.ts). */
export interface MemoryCallbackJobStore extends CallbackJobStore {
  ofNumber(numberHash: string): CallbackJob[];
  eraseNumber(numberHash: string): number;
}

export function createMemoryCallbackJobStore(): MemoryCallbackJobStore {
  const jobs = new Map<string, Held>();
  const copy = (job: CallbackJob): CallbackJob => structuredClone(job);
  const leased = (job: CallbackJob, nowMs: number) => job.leaseOwner !== null && (job.leaseExpiresAt ?? 0) > nowMs;
  const bookedElsewhere = (numberHash: string, except?: CallbackJob) =>
    [...jobs.values()].some(({ job }) => job !== except && job.stage === 'scheduled' && job.numberHash === numberHash);

  function held(callbackId: string, owner: string): CallbackJob | undefined {
    const found = jobs.get(callbackId)?.job;
    return found && found.state === 'pending' && found.leaseOwner === owner ? found : undefined;
  }

  return {
    async add(input, nowMs) {
      if (jobs.has(input.callbackId)) return { ok: false, reason: 'duplicate_callback_id' };
      if (input.stage === 'scheduled' && bookedElsewhere(input.numberHash)) return { ok: false, reason: 'number_already_scheduled' };
      const job = storedJob(structuredClone(input), nowMs);
      jobs.set(input.callbackId, {
        cancelHash: input.cancelToken === null ? null : hashCancelToken(input.cancelToken),
        job: { ...job, request: requestIn(job.stage, job.request) },
      });
      return { ok: true };
    },

    async claimDue(owner, nowMs, leaseMs, limit) {
      const due = [...jobs.values()]
        .map((h) => h.job)
        .filter((j) => j.state === 'pending' && j.dueAt <= nowMs && !leased(j, nowMs))
        .sort((a, b) => a.dueAt - b.dueAt)
        .slice(0, limit);
      for (const job of due) {
        Object.assign(job, { interrupted: job.leaseOwner !== null, leaseOwner: owner, leaseExpiresAt: nowMs + leaseMs, attempts: job.attempts + 1, updatedAt: nowMs });
      }
      return due.map(copy);
    },

    async renew(callbackId, owner, nowMs, leaseMs) {
      const job = held(callbackId, owner);
      if (!job || !leased(job, nowMs)) return false;
      job.leaseExpiresAt = nowMs + leaseMs;
      return true;
    },

    async advance(callbackId, owner, from, step, nowMs) {
      const job = held(callbackId, owner);
      if (!job || job.stage !== from) return false;
      if (step.stage === 'scheduled' && bookedElsewhere(job.numberHash, job)) return false;
      const lease = { leaseOwner: null, leaseExpiresAt: null, updatedAt: nowMs };
      if ('dueAt' in step) Object.assign(job, lease, { stage: step.stage, dueAt: step.dueAt, progress: { ...step.progress } });
      else Object.assign(job, lease, { stage: step.stage, state: stateOf(step.stage), outcome: step.outcome, request: requestIn(step.stage, job.request) });
      return true;
    },

    async cancel(callbackId, cancelToken, nowMs) {
      const found = jobs.get(callbackId);
      const verdict = cancelVerdict(found && { ...found.job, cancelHash: found.cancelHash }, cancelToken, nowMs);
      if (verdict !== 'cancelled' || !found) return verdict;
      Object.assign(found.job, {
        stage: 'cancelled',
        state: 'cancelled',
        outcome: null,
        leaseOwner: null,
        leaseExpiresAt: null,
        updatedAt: nowMs,
        request: requestIn('cancelled', found.job.request),
      });
      return 'cancelled';
    },

    async get(callbackId) {
      const found = jobs.get(callbackId);
      return found && copy(found.job);
    },

    async listPending(limit) {
      return [...jobs.values()]
        .map((h) => h.job)
        .filter((j) => j.state === 'pending')
        .sort((a, b) => a.dueAt - b.dueAt)
        .slice(0, limit)
        .map(copy);
    },

    async listFailed(sinceMs, limit) {
      return [...jobs.values()]
        .map((h) => h.job)
        .filter((j) => j.state === 'failed' && j.attempts > 0 && j.updatedAt >= sinceMs)
        .sort((a, b) => b.updatedAt - a.updatedAt)
        .slice(0, limit)
        .map(copy);
    },
    ofNumber: (numberHash) => [...jobs.values()].filter(({ job }) => job.numberHash === numberHash).map(({ job }) => copy(job)),
    eraseNumber(numberHash) {
      const erased = [...jobs].filter(([, { job }]) => job.numberHash === numberHash);
      for (const [id] of erased) jobs.delete(id);
      return erased.length;
    },
  };
}
