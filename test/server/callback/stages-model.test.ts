// A callback's stages (callback/stages.ts) walked two ways. NEXT itself: every stage reachable from a
// first stage, every waiting stage able to end, nothing leaving a final stage, and the drawing in
// docs/architecture.md ("A callback's life") saying exactly what NEXT says. Then the three job stores
// (memory, SQLite, Redis) driven through the lifecycle by the same random steps (add, claim, renew,
// move to any stage, cancel, time passing) and compared after each with one model of what a store
// must do: the answer of each call and every job's stage, state, lease, due time and attempts,
// whether it still holds the number (stages.ts forgetsNumber: gone in the write that ends it), and
// the owner's failed list.
import { readFileSync } from 'node:fs';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { CallbackJobStore, JobStep, NewCallbackJob } from '../../../server/src/callback/job-store.ts';
import { createLifecycle, type Lifecycle } from '../../../server/src/callback/lifecycle.ts';
import {
  canMove,
  FINAL_STAGES,
  INITIAL_STAGES,
  isCancellable,
  isWaiting,
  nextStages,
  type RequestedAs,
  type Stage,
  STAGES,
  StageTransitionError,
  stateOf,
  WAITING_STAGES,
} from '../../../server/src/callback/stages.ts';
import { createMemoryCallbackJobStore } from '../../../server/src/callback/stores/memory-job-store.ts';
import { createRedisCallbackJobStore } from '../../../server/src/callback/stores/redis-job-store.ts';
import { createSqliteCallbackJobStore } from '../../../server/src/callback/stores/sqlite-job-store.ts';
import { openDatabase } from '../../../server/src/storage/sqlite/database.ts';
import { tempDataDir } from '../../support/crash.ts';
import { redisForTests } from '../../support/redis-test-connection.ts';
import { jobFor, T0 } from '../../support/store-scenarios.ts';

const redis = redisForTests();

describe('NEXT', () => {
  it('reaches every stage from a first stage, lets every waiting stage end, and nothing leaves a final one', () => {
    const reached = new Set<Stage>(Object.values(INITIAL_STAGES));
    for (let grew = true; grew; ) {
      const before = reached.size;
      for (const stage of [...reached]) for (const next of nextStages(stage)) reached.add(next);
      grew = reached.size > before;
    }
    expect([...reached].sort()).toEqual([...STAGES].sort());
    for (const stage of WAITING_STAGES) {
      expect(canMove(stage, stage), `${stage} waits on`).toBe(true);
      expect(nextStages(stage).some((next) => !isWaiting(next))).toBe(true);
    }
    for (const stage of FINAL_STAGES) expect(nextStages(stage)).toEqual([]);
    // A placed call has nothing to cancel; every other waiting stage has.
    expect(WAITING_STAGES.filter(isCancellable)).toEqual(['scheduled', 'queued', 'checking', 'redial']);
  });

  it('is what docs/architecture.md draws', () => {
    const doc = readFileSync(new URL('../../../docs/architecture.md', import.meta.url), 'utf8');
    const drawn = new Map<string, string[]>();
    for (const match of doc.matchAll(/^(\w+)\s+──▶ (.*)$/gm))
      drawn.set(
        match[1]!,
        [...match[2]!.replace(/\([^)]*\)/g, '').matchAll(/\w+/g)].map((m) => m[0]),
      );
    expect(Object.fromEntries(drawn)).toEqual(Object.fromEntries(WAITING_STAGES.map((stage) => [stage, [...nextStages(stage)]])));
  });
});

// ---- one model of a job store, and the random steps driven through it and the stores ----

interface ModelJob {
  stage: Stage;
  dueAt: number;
  numberHash: string;
  token: string | null;
  leaseOwner: string | null;
  leaseExpiresAt: number | null;
  attempts: number;
  /** The number (address, user agent) is still held: until the job ends. */
  number: boolean;
}

/** How a call now starts (place-now.ts): followed, placed with nothing to follow (ended in the same write), or refused. */
type NowStart = 'following' | 'ended' | 'failed';

type Step =
  | { kind: 'add'; number: number; as: RequestedAs; dueIn: number; now: NowStart }
  | { kind: 'claim'; owner: string; limit: number }
  | { kind: 'renew'; job: number; owner: string }
  /** `to`: a stage by name (mostly one NEXT forbids), or the n-th one NEXT allows. */
  | { kind: 'move'; job: number; owner: string; to: Stage | number; dueIn: number }
  | { kind: 'cancel'; job: number; token: 'right' | 'wrong' | 'owner' }
  | { kind: 'tick'; seconds: number };

const owner = fc.constantFrom('a', 'b');
const job = fc.nat();
const step: fc.Arbitrary<Step> = fc.oneof(
  {
    weight: 3,
    arbitrary: fc.record({
      kind: fc.constant('add' as const),
      number: fc.integer({ min: 0, max: 2 }),
      as: fc.constantFrom<RequestedAs>('scheduled', 'queued', 'now', 'owner'),
      dueIn: fc.integer({ min: 0, max: 3 }),
      now: fc.constantFrom<NowStart>('following', 'ended', 'failed'),
    }),
  },
  { weight: 3, arbitrary: fc.record({ kind: fc.constant('claim' as const), owner, limit: fc.integer({ min: 1, max: 3 }) }) },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant('renew' as const), job, owner }) },
  {
    weight: 5,
    arbitrary: fc.record({
      kind: fc.constant('move' as const),
      job,
      owner,
      to: fc.oneof({ weight: 1, arbitrary: fc.constantFrom(...STAGES) }, { weight: 4, arbitrary: fc.nat() }),
      dueIn: fc.integer({ min: 0, max: 3 }),
    }),
  },
  { weight: 2, arbitrary: fc.record({ kind: fc.constant('cancel' as const), job, token: fc.constantFrom('right' as const, 'wrong' as const, 'owner' as const) }) },
  { weight: 2, arbitrary: fc.record({ kind: fc.constant('tick' as const), seconds: fc.integer({ min: 0, max: 2 }) }) },
);

const LEASE_MS = 1500;

/** Drives one store and the model through `steps`, comparing after each. Times are whole seconds plus the step's index, so no two jobs are due at once (the stores may order ties differently). */
async function walk(store: CallbackJobStore, steps: readonly Step[]): Promise<void> {
  let clock = T0;
  const model = new Map<string, ModelJob>();
  const ids: string[] = [];
  const lifecycles = new Map<string, Lifecycle>();
  const lifecycleOf = (name: string) => {
    let found = lifecycles.get(name);
    if (!found)
      lifecycles.set(
        name,
        (found = createLifecycle({
          store,
          owner: name,
          now: () => clock,
          onListenerError: (err) => {
            throw err;
          },
        })),
      );
    return found;
  };
  const pending = (j: ModelJob) => isWaiting(j.stage);
  const leased = (j: ModelJob) => j.leaseOwner !== null && (j.leaseExpiresAt ?? 0) > clock;
  const bookedElsewhere = (numberHash: string, except?: ModelJob) => [...model.values()].some((j) => j !== except && j.stage === 'scheduled' && j.numberHash === numberHash);

  for (const [index, s] of steps.entries()) {
    // dueIn 0: due already (a second ago).
    const at = (dueIn: number) => clock + (dueIn - 1) * 1000 + index + 1;
    // A move mostly concerns a job its owner holds (else the store refuses it, as it must).
    const held = s.kind === 'move' ? ids.filter((cb) => model.get(cb)!.leaseOwner === s.owner && pending(model.get(cb)!)) : [];
    const among = held.length > 0 ? held : ids;
    const id = among.length > 0 && 'job' in s ? among[s.job % among.length]! : undefined;
    const label = `step ${index}: ${JSON.stringify(s)}`;
    if (s.kind === 'add') {
      const callbackId = `cb-${index}`;
      const first = INITIAL_STAGES[s.as];
      const job = { ...jobFor(callbackId, String(s.number), at(s.dueIn), first === 'queued' ? 'queued' : 'scheduled'), requestedAs: s.as, stage: first };
      if (first === 'following' || s.as === 'owner') job.cancelToken = null;
      const refused = first === 'scheduled' && bookedElsewhere(job.numberHash);
      const [start, ...then]: [NewCallbackJob, ...JobStep[]] =
        s.as !== 'now' || s.now === 'following'
          ? [job]
          : s.now === 'failed'
            ? [{ ...job, stage: 'failed', outcome: 'upstream_rejected' }]
            : [job, { stage: 'ended', outcome: 'placed' }];
      expect(await lifecycleOf('a').start(start, ...then), label).toEqual(refused ? { ok: false, reason: 'number_already_scheduled' } : { ok: true });
      const stage = then.at(-1)?.stage ?? start.stage;
      if (!refused) {
        ids.push(callbackId);
        model.set(callbackId, {
          stage,
          dueAt: job.dueAt,
          numberHash: job.numberHash,
          token: job.cancelToken,
          leaseOwner: null,
          leaseExpiresAt: null,
          attempts: 0,
          number: isWaiting(stage),
        });
      }
    } else if (s.kind === 'claim') {
      const due = [...model.entries()].filter(([, j]) => pending(j) && j.dueAt <= clock && !leased(j)).sort(([, x], [, y]) => x.dueAt - y.dueAt);
      const taken = due.slice(0, s.limit);
      for (const [, j] of taken) Object.assign(j, { leaseOwner: s.owner, leaseExpiresAt: clock + LEASE_MS, attempts: j.attempts + 1 });
      expect(
        (await store.claimDue(s.owner, clock, LEASE_MS, s.limit)).map((j) => j.callbackId),
        label,
      ).toEqual(taken.map(([cb]) => cb));
    } else if (s.kind === 'renew' && id) {
      const j = model.get(id)!;
      const held = pending(j) && j.leaseOwner === s.owner && leased(j);
      if (held) j.leaseExpiresAt = clock + LEASE_MS;
      expect(await store.renew(id, s.owner, clock, LEASE_MS), label).toBe(held);
    } else if (s.kind === 'move' && id) {
      const j = model.get(id)!;
      const seen = (await store.get(id))!;
      const allowed = nextStages(j.stage);
      const to = typeof s.to === 'number' ? (allowed[s.to % Math.max(1, allowed.length)] ?? 'answered') : s.to;
      const next: JobStep = isWaiting(to) ? { stage: to, dueAt: at(s.dueIn), progress: seen.progress } : { stage: to, outcome: 'test' };
      const moving = lifecycleOf(s.owner).move(seen, next);
      if (!canMove(j.stage, to)) {
        await expect(moving, label).rejects.toThrow(StageTransitionError);
      } else {
        const done = pending(j) && j.leaseOwner === s.owner && !(to === 'scheduled' && bookedElsewhere(j.numberHash, j));
        if (done) Object.assign(j, { stage: to, leaseOwner: null, leaseExpiresAt: null, number: isWaiting(to) }, 'dueAt' in next && { dueAt: next.dueAt });
        expect(await moving, label).toBe(done);
      }
    } else if (s.kind === 'cancel' && id) {
      const j = model.get(id)!;
      const token = s.token === 'owner' ? null : s.token === 'right' && j.token !== null ? j.token : 'not-the-token';
      let answer: string;
      if (token !== null && j.token !== token) answer = 'wrong_token';
      else if (!pending(j)) answer = 'not_pending';
      else if (!isCancellable(j.stage)) answer = 'placed';
      else if (leased(j)) answer = 'in_progress';
      else {
        answer = 'cancelled';
        Object.assign(j, { stage: 'cancelled', leaseOwner: null, leaseExpiresAt: null, number: false });
      }
      expect(await lifecycleOf('a').cancel((await store.get(id))!, token), label).toBe(answer);
    } else if (s.kind === 'tick') {
      clock += s.seconds * 1000;
    }
    for (const [callbackId, j] of model) {
      const stored = (await store.get(callbackId))!;
      const { stage, state, dueAt, leaseOwner, leaseExpiresAt, attempts, request } = stored;
      expect({ stage, state, dueAt, leaseOwner, leaseExpiresAt, attempts, e164: request.e164 !== null, clientIp: request.clientIp !== null }, `${label}: ${callbackId}`).toEqual({
        stage: j.stage,
        state: stateOf(j.stage),
        dueAt: j.dueAt,
        leaseOwner: j.leaseOwner,
        leaseExpiresAt: j.leaseExpiresAt,
        attempts: j.attempts,
        e164: j.number,
        clientIp: j.number,
      });
    }
    // The owner's failed list: failed once a relay had claimed them (a call now refused at once is not).
    const failed = [...model.entries()].filter(([, j]) => j.stage === 'failed' && j.attempts > 0).map(([cb]) => cb);
    expect((await store.listFailed(0, 100)).map((j) => j.callbackId).sort(), label).toEqual(failed.sort());
    const waiting = [...model.entries()].filter(([, j]) => pending(j)).sort(([, x], [, y]) => x.dueAt - y.dueAt);
    expect(
      (await store.listPending(100)).map((j) => j.callbackId),
      label,
    ).toEqual(waiting.map(([cb]) => cb));
  }
}

const stores: [string, () => CallbackJobStore][] = [
  ['memory', () => createMemoryCallbackJobStore()],
  ['sqlite', () => createSqliteCallbackJobStore({ db: openDatabase({ dataDir: tempDataDir() }) })],
  ['redis', () => createRedisCallbackJobStore({ connection: redis.fresh(), retentionDays: 30 })],
];

describe.each(stores)('the %s job store against the model', (_name, make) => {
  it('answers every step as the model does, and keeps what the model keeps', async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(step, { minLength: 5, maxLength: 40, size: 'max' }), (steps) => walk(make(), steps)),
      { numRuns: 60 },
    );
  }, 120_000);
});
