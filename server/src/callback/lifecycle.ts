// The one module that changes a callback's stage. Every change is checked against stages.ts,
// written to the job store only if the job is still where the caller saw it (its lease and its
// stage), and told to the listeners as one event: the lead webhook, metrics, and whatever else
// wants to know what became of a lead (the owner's notifications, reports). Every admitted callback
// is a job, so they hear of every lead here and nowhere else.
//
// Listeners hear of a step before the store records it: a relay that dies in between has told of
// a step it did not record, and the next owner of the job does the step again and tells it again
// (at least once; the lead webhook's event ids are stable, so its receiver sees one). The other
// order could lose a lead's last word.
import { storedJob, type CallbackJob, type CallbackJobStore, type JobStep, type NewCallbackJob } from './job-store.ts';
import { canMove, mayStartIn, StageTransitionError, type Stage } from './stages.ts';

export interface LifecycleEvent {
  callbackId: string;
  /** null: the job was just created. */
  from: Stage | null;
  to: Stage;
  at: number;
  /** The job as it was before the step (its progress, its number while it has one). */
  job: CallbackJob;
  /** A waiting step's next due time and progress; a final one's outcome. */
  step: JobStep;
}

export type LifecycleListener = (event: LifecycleEvent) => void | Promise<void>;

export interface Lifecycle {
  /**
   * Stores a new job in its first stage (stages.ts mayStartIn) and tells of it; with `then`, the
   * steps it takes at once (a call now that nothing would follow: following, then ended), told one
   * by one and written once, as the last of them leaves the job.
   */
  start(job: NewCallbackJob, ...then: JobStep[]): ReturnType<CallbackJobStore['add']>;
  /**
   * Moves a job this relay holds to its next step, or through several at once (a call found placed
   * and already over: following, then missed), told one by one and written once; false when the
   * lease or the stage was lost meanwhile (nothing written).
   */
  move(job: CallbackJob, step: JobStep, ...then: JobStep[]): Promise<boolean>;
  /** Cancels a waiting job (visitor's token, or null for the owner); tells of it when it was cancelled. */
  cancel(job: CallbackJob, token: string | null): ReturnType<CallbackJobStore['cancel']>;
  /** Adds a listener of every step. */
  on(listener: LifecycleListener): void;
}

export interface LifecycleDeps {
  store: CallbackJobStore;
  /** This relay's lease owner id. */
  owner: string;
  now: () => number;
  /** Called when a listener throws: a listener's failure never stops a step. */
  onListenerError: (err: unknown, event: LifecycleEvent) => void;
}

/** The job as a step leaves it. */
/** A job, new or stored, as `step` leaves it. (No step leaves a final stage, so a waiting step never meets an outcome.) */
const after = <J extends CallbackJob | NewCallbackJob>(job: J, step: JobStep): J =>
  ('progress' in step ? { ...job, stage: step.stage, dueAt: step.dueAt, progress: step.progress } : { ...job, stage: step.stage, outcome: step.outcome }) as J;

/** A new job's first stage as a step. */
const firstStep = (job: NewCallbackJob): JobStep =>
  'outcome' in job ? { stage: job.stage, outcome: job.outcome } : { stage: job.stage, dueAt: job.dueAt, progress: job.progress };

/** Throws unless each of `steps` may follow the one before, from `stage`. */
const checkPath = (stage: Stage, steps: readonly JobStep[]): void => {
  steps.reduce((at, next) => {
    if (!canMove(at, next.stage)) throw new StageTransitionError(at, next.stage);
    return next.stage;
  }, stage);
};

export function createLifecycle(deps: LifecycleDeps): Lifecycle {
  const listeners: LifecycleListener[] = [];

  async function tell(event: LifecycleEvent): Promise<void> {
    for (const listener of listeners) {
      try {
        await listener(event);
      } catch (err) {
        deps.onListenerError(err, event);
      }
    }
  }

  /** Tells of `steps` one by one from `job`; waiting on in the same stage (a poll, a backoff) is no step of the callback's life. */
  async function tellPath(job: CallbackJob, steps: readonly JobStep[], at: number): Promise<void> {
    let before = job;
    for (const next of steps) {
      if (next.stage !== before.stage) await tell({ callbackId: job.callbackId, from: before.stage, to: next.stage, at, job: before, step: next });
      before = after(before, next);
    }
  }

  return {
    async start(job, ...then) {
      if (!mayStartIn(job.requestedAs, job.stage)) throw new StageTransitionError(null, job.stage);
      checkPath(job.stage, then);
      const at = deps.now();
      const added = await deps.store.add(then.reduce(after, job), at);
      // Told after the store took it: a job refused (a second booking) never existed.
      if (added.ok) {
        const first = storedJob(job, at);
        await tell({ callbackId: job.callbackId, from: null, to: job.stage, at, job: first, step: firstStep(job) });
        await tellPath(first, then, at);
      }
      return added;
    },

    async move(job, step, ...then) {
      const steps = [step, ...then];
      // The whole path is checked before anyone is told of its first step.
      checkPath(job.stage, steps);
      const now = deps.now();
      await tellPath(job, steps, now);
      return deps.store.advance(job.callbackId, deps.owner, job.stage, steps[steps.length - 1]!, now);
    },

    async cancel(job, token) {
      const at = deps.now();
      const result = await deps.store.cancel(job.callbackId, token, at);
      if (result === 'cancelled') await tell({ callbackId: job.callbackId, from: job.stage, to: 'cancelled', at, job, step: { stage: 'cancelled', outcome: 'cancelled' } });
      return result;
    },

    on(listener) {
      listeners.push(listener);
    },
  };
}
