// CallbackJobStore in Redis (REDIS_URL): the SQLite store's semantics, shared by every relay. Each
// step is one Lua script (redis-jobs/), so a claim is exclusive across relays, and a job whose owner
// died (kill -9) is taken over only after its lease expired, flagged `interrupted`. Its keys, their
// lifetimes and why not BullMQ: this folder's README ("Jobs in Redis").
import { cancelVerdict, hashCancelToken, type CallbackJob, type CallbackJobStore, type JobProgress } from '../job-store.ts';
import { legacyJobFields } from './legacy-job.ts';
import { forgetsNumber, stateOf, type Stage } from '../stages.ts';
import type { lua, RedisConnection } from '../../storage/redis/connection.ts';
import { hashesWhere } from '../../storage/redis/scan.ts';
import type { RecordsByNumber } from '../../storage/records-by-number.ts';
import { migrateLegacyJobs } from './redis-job-migration.ts';
import { ADD, CANCEL, CLAIM, FINISH, RENEW, WAIT } from './redis-job-scripts.ts';

const DAY_MS = 86_400_000;
/** Candidates one claim looks at (then the earliest due first). */
const CLAIM_SCAN = 1000;
/** Reads and guarded writes a cancel tries while the job keeps changing under it. */
const CANCEL_TRIES = 3;

const num = (v: string | undefined): number | null => (v === undefined || v === '' ? null : Number(v));

/** The progress fields of a job hash, as WAIT and ADD write them ('' for none). */
function progressFields(p: JobProgress): Record<string, string | number> {
  return {
    scheduledFor: p.scheduledFor ?? '',
    queuedAt: p.queuedAt ?? '',
    unreachable: p.unreachableTries,
    lastAttempt: p.lastAttemptAt ?? '',
    retriedUnknown: p.retriedUnknown ? '1' : '0',
    redials: p.redials,
    dueSince: p.dueSince ?? '',
  };
}

export function toJob(stored: Record<string, string>): CallbackJob {
  // A hash written before stages existed is read as the migration rewrites it.
  const h = stored.stage === undefined ? { ...stored, ...legacyJobFields(stored) } : stored;
  const stage = h.stage as Stage;
  return {
    callbackId: h.id!,
    requestedAs: h.requestedAs as CallbackJob['requestedAs'],
    stage,
    state: stateOf(stage),
    dueAt: Number(h.due),
    request: {
      ...JSON.parse(h.request!),
      e164: h.e164 ?? null,
      clientIp: h.clientIp ?? null,
      userAgent: h.userAgent === undefined ? null : (JSON.parse(h.userAgent) as string | null),
      // '' or absent (a hash written before departments): the first department.
      ...(h.department && { department: h.department }),
    },
    numberHash: h.numberHash!,
    maskedNumber: h.masked!,
    cancellable: (h.cancel ?? '') !== '',
    attempts: Number(h.attempts ?? 0),
    leaseOwner: h.owner ? h.owner : null,
    leaseExpiresAt: num(h.lease),
    interrupted: h.interrupted === '1',
    outcome: h.outcome ?? null,
    progress: {
      scheduledFor: num(h.scheduledFor),
      queuedAt: num(h.queuedAt),
      unreachableTries: Number(h.unreachable ?? 0),
      lastAttemptAt: num(h.lastAttempt),
      retriedUnknown: h.retriedUnknown === '1',
      redials: Number(h.redials ?? 0),
      dueSince: num(h.dueSince),
    },
    createdAt: Number(h.created),
    updatedAt: Number(h.updated),
  };
}

/**
 * The steps a failover must not undo (REDIS_MIN_REPLICAS: WAIT for replicas): a job accepted, a
 * job claimed by one relay (else another claims it again), a call's step recorded (else it is
 * placed again), a cancellation (else the cancelled call rings).
 */
const DURABLE = new Set(['jobs.add', 'jobs.claim', 'jobs.finish', 'jobs.wait', 'jobs.cancel']);

export function createRedisCallbackJobStore(options: { connection: RedisConnection; retentionDays: number }): CallbackJobStore & RecordsByNumber<CallbackJob> {
  const { connection } = options;
  const space = connection.keyspace('jobs');
  const retentionMs = options.retentionDays * DAY_MS;
  const jobKey = (id: string) => `${space}job:${id}`;
  const run = (operation: string, script: ReturnType<typeof lua>, args: (string | number)[]) =>
    connection.evalScript(operation, script, [`${space}ready`, `${space}pending`, `${space}numbers`], [space, ...args], { durable: DURABLE.has(operation) });

  // Jobs written before stages existed are rewritten before the first write or claim (reads derive
  // the same fields meanwhile); a Redis that is down at start is migrated on a later call.
  let migrated: Promise<void> | null = null;
  const migrateOnce = () =>
    (migrated ??= migrateLegacyJobs(connection).then(
      () => undefined,
      (err: unknown) => {
        migrated = null;
        throw err;
      },
    ));

  async function read(operation: string, ids: readonly string[]): Promise<CallbackJob[]> {
    if (ids.length === 0) return [];
    const hashes = await connection.run(operation, (c) => {
      const multi = c.multi();
      for (const id of ids) multi.hGetAll(jobKey(id));
      return multi.exec();
    });
    return (hashes as unknown as Record<string, string>[]).filter((h) => h && h.id !== undefined).map(toJob);
  }

  return {
    async add(job, nowMs) {
      await migrateOnce();
      const { e164, clientIp, userAgent, department, ...rest } = job.request;
      const over = 'outcome' in job;
      const fields: Record<string, string | number> = {
        id: job.callbackId,
        requestedAs: job.requestedAs,
        stage: job.stage,
        state: stateOf(job.stage),
        ...(over && { outcome: job.outcome }),
        due: job.dueAt,
        numberHash: job.numberHash,
        masked: job.maskedNumber,
        ...(!forgetsNumber(job.stage) && { e164, clientIp, userAgent: JSON.stringify(userAgent) }),
        department: department ?? '',
        request: JSON.stringify(rest),
        cancel: job.cancelToken === null ? '' : hashCancelToken(job.cancelToken),
        attempts: 0,
        owner: '',
        lease: '',
        interrupted: '0',
        created: nowMs,
        updated: nowMs,
        ...progressFields(job.progress),
      };
      const answer = await run('jobs.add', ADD, [job.callbackId, job.stage, job.dueAt, job.numberHash, over ? retentionMs : 0, ...Object.entries(fields).flat()]);
      if (answer === 'duplicate') return { ok: false, reason: 'duplicate_callback_id' };
      if (answer === 'number') return { ok: false, reason: 'number_already_scheduled' };
      return { ok: true };
    },

    async claimDue(owner, nowMs, leaseMs, limit) {
      await migrateOnce();
      const ids = (await run('jobs.claim', CLAIM, [owner, nowMs, leaseMs, limit, Math.max(CLAIM_SCAN, limit)])) as string[];
      const jobs = await read('jobs.read', ids);
      return jobs.sort((a, b) => a.dueAt - b.dueAt);
    },

    async renew(callbackId, owner, nowMs, leaseMs) {
      return (await run('jobs.renew', RENEW, [callbackId, owner, nowMs, leaseMs])) === 1;
    },

    async advance(callbackId, owner, from, step, nowMs) {
      await migrateOnce();
      if (!('dueAt' in step)) {
        return (
          (await run('jobs.finish', FINISH, [
            callbackId,
            owner,
            from,
            step.stage,
            stateOf(step.stage),
            step.outcome,
            nowMs,
            retentionMs,
            forgetsNumber(step.stage) ? '1' : '0',
          ])) === 1
        );
      }
      const fields = Object.entries(progressFields(step.progress)).flat();
      return (await run('jobs.wait', WAIT, [callbackId, owner, from, step.stage, step.dueAt, nowMs, ...fields])) === 1;
    },

    async cancel(callbackId, cancelToken, nowMs) {
      await migrateOnce();
      // Decided on what is read, written only if nothing changed since (else decided again): a
      // relay that claims or moves the job in between wins, as it does in the other stores.
      for (let tries = 0; tries < CANCEL_TRIES; tries++) {
        const stored = await connection.run('jobs.get', (c) => c.hGetAll(jobKey(callbackId)));
        const job = stored.id === undefined ? undefined : toJob(stored);
        const verdict = cancelVerdict(job && { ...job, cancelHash: stored.cancel || null }, cancelToken, nowMs);
        if (verdict !== 'cancelled' || (await run('jobs.cancel', CANCEL, [callbackId, job!.stage, nowMs, retentionMs, forgetsNumber('cancelled') ? '1' : '0'])) === 1)
          return verdict;
      }
      // Changing under every try: a relay is handling it right now.
      return 'in_progress';
    },

    async get(callbackId) {
      const [job] = await read('jobs.get', [callbackId]);
      return job;
    },

    async listPending(limit) {
      const ids = await connection.run('jobs.list', (c) => c.zRange(`${space}pending`, 0, limit - 1));
      return read('jobs.read', ids);
    },

    // No index leads from a number to its jobs (a finished one is found by id only): a scan, for a
    // visitor's data on request, bounded by what DATA_RETENTION_DAYS keeps.
    async ofNumber(numberHash) {
      const found = await connection.run('jobs.of-number', (c) => hashesWhere(c, connection.topology, space, 'job:*', 'numberHash', numberHash));
      return found.map((h) => toJob(h.fields)).sort((a, b) => a.createdAt - b.createdAt);
    },

    async eraseNumber(numberHash) {
      return connection.run('jobs.erase-number', async (c) => {
        const found = await hashesWhere(c, connection.topology, space, 'job:*', 'numberHash', numberHash);
        if (found.length === 0) return 0;
        const multi = c.multi();
        for (const { key, fields } of found) {
          multi.del(key);
          for (const index of ['ready', 'pending', 'failed']) multi.zRem(`${space}${index}`, fields.id!);
        }
        // The pending booking's slot of the number (numberHash → id).
        multi.hDel(`${space}numbers`, numberHash);
        await multi.exec();
        return found.length;
      });
    },

    async listFailed(sinceMs, limit) {
      const ids = await connection.run('jobs.failed', (c) => c.zRange(`${space}failed`, '+inf', sinceMs, { BY: 'SCORE', REV: true, LIMIT: { offset: 0, count: limit } }));
      return read('jobs.read', ids);
    },
  };
}
