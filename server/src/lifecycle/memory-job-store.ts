// CallbackJobStore in memory, for tests and benchmarks (the relay's default is the SQLite store).
import { cancelTokenMatches, hashCancelToken, type CallbackJob, type CallbackJobStore } from './job-store.ts';

interface Held {
  job: CallbackJob;
  cancelHash: string;
}

export function createMemoryCallbackJobStore(): CallbackJobStore {
  const jobs = new Map<string, Held>();
  const copy = (job: CallbackJob): CallbackJob => structuredClone(job);
  const leased = (job: CallbackJob, nowMs: number) => job.leaseOwner !== null && (job.leaseExpiresAt ?? 0) > nowMs;

  function held(callbackId: string, owner: string): CallbackJob | undefined {
    const found = jobs.get(callbackId)?.job;
    return found && found.state === 'pending' && found.leaseOwner === owner ? found : undefined;
  }

  function finish(job: CallbackJob, state: CallbackJob['state'], outcome: string | null, nowMs: number): void {
    Object.assign(job, { state, outcome, leaseOwner: null, leaseExpiresAt: null, updatedAt: nowMs });
  }

  return {
    async add(input, nowMs) {
      if (jobs.has(input.callbackId)) return { ok: false, reason: 'duplicate_callback_id' };
      if (input.kind === 'scheduled') {
        for (const { job } of jobs.values()) {
          if (job.state === 'pending' && job.kind === 'scheduled' && job.numberHash === input.numberHash) return { ok: false, reason: 'number_already_scheduled' };
        }
      }
      const { cancelToken, notes, ...rest } = input;
      jobs.set(input.callbackId, {
        cancelHash: hashCancelToken(cancelToken),
        job: {
          ...structuredClone(rest),
          notes: notes ?? null,
          state: 'pending',
          attempts: 0,
          leaseOwner: null,
          leaseExpiresAt: null,
          interrupted: false,
          outcome: null,
          createdAt: nowMs,
          updatedAt: nowMs,
        },
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

    async complete(callbackId, owner, outcome, nowMs) {
      const job = held(callbackId, owner);
      if (!job) return false;
      finish(job, 'completed', outcome, nowMs);
      return true;
    },

    async fail(callbackId, owner, reason, nowMs) {
      const job = held(callbackId, owner);
      if (!job) return false;
      finish(job, 'failed', reason, nowMs);
      return true;
    },

    async reschedule(callbackId, owner, dueAt, nowMs, kind, notes) {
      const job = held(callbackId, owner);
      if (!job) return false;
      if (kind === 'scheduled' && job.kind !== 'scheduled') {
        for (const { job: other } of jobs.values()) {
          if (other !== job && other.state === 'pending' && other.kind === 'scheduled' && other.numberHash === job.numberHash) return false;
        }
      }
      Object.assign(job, { dueAt, kind: kind ?? job.kind, notes: notes === undefined ? job.notes : notes, leaseOwner: null, leaseExpiresAt: null, updatedAt: nowMs });
      return true;
    },

    async cancel(callbackId, cancelToken, nowMs) {
      const found = jobs.get(callbackId);
      if (!found) return 'not_found';
      if (cancelToken !== null && !cancelTokenMatches(cancelToken, found.cancelHash)) return 'wrong_token';
      if (found.job.state !== 'pending') return 'not_pending';
      if (leased(found.job, nowMs)) return 'in_progress';
      finish(found.job, 'cancelled', null, nowMs);
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
        .filter((j) => j.state === 'failed' && j.updatedAt >= sinceMs)
        .sort((a, b) => b.updatedAt - a.updatedAt)
        .slice(0, limit)
        .map(copy);
    },
  };
}
