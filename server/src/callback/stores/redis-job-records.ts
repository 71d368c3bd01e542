// Callback jobs read from and written to Redis whole (job-records.ts), for `npm run store -- move`.
// A job is written by one script that keeps the job store's invariants (redis-job-store.ts): a
// pending job in the ready and pending sets (ready at its lease's end while a lease holds it), a
// booking in the per-number index, refused when another booking holds its number; a finished job
// expiring DATA_RETENTION_DAYS after it finished, a failed one in the owner view's failed set. A job
// the target held under the same id is unindexed and replaced.
import type { RedisConnection } from '../../storage/redis/connection.ts';
import { lua } from '../../storage/redis/connection.ts';
import { countKeys, groupValues } from '../../storage/redis/scan-values.ts';
import type { RecordSet, RecordsWritten } from '../../storage/record-set.ts';
import { jobExpiresAt, jobKept, type MovedJob } from './job-records.ts';
import { toJob } from './redis-job-store.ts';

// KEYS: ready, pending, numbers. ARGV: space, id, state, stage, due, readyAt, numberHash, expireAt, failedAt ('' none), retentionMs, fields…
const PUT = lua(`
local space, id, state, stage, due, readyAt, nh = ARGV[1], ARGV[2], ARGV[3], ARGV[4], tonumber(ARGV[5]), tonumber(ARGV[6]), ARGV[7]
local ready, pending, numbers, failed = KEYS[1], KEYS[2], KEYS[3], space .. 'failed'
local k = space .. 'job:' .. id
if stage == 'scheduled' then
  local holder = redis.call('HGET', numbers, nh)
  if holder and holder ~= id then return {'refused', holder} end
end
local existed = redis.call('EXISTS', k) == 1
if existed then
  redis.call('ZREM', ready, id)
  redis.call('ZREM', pending, id)
  redis.call('ZREM', failed, id)
  local old = redis.call('HGET', k, 'numberHash')
  if old and redis.call('HGET', numbers, old) == id then redis.call('HDEL', numbers, old) end
  redis.call('DEL', k)
end
local fields = {}
for i = 11, #ARGV do fields[#fields + 1] = ARGV[i] end
redis.call('HSET', k, unpack(fields))
if state == 'pending' then
  if stage == 'scheduled' then redis.call('HSET', numbers, nh, id) end
  redis.call('ZADD', ready, readyAt, id)
  redis.call('ZADD', pending, due, id)
else
  redis.call('PEXPIREAT', k, tonumber(ARGV[8]))
  if ARGV[9] ~= '' then
    redis.call('ZADD', failed, tonumber(ARGV[9]), id)
    redis.call('PEXPIRE', failed, tonumber(ARGV[10]))
  end
end
if existed then return {'replaced'} end
return {'added'}
`);

const DAY_MS = 86_400_000;
const orEmpty = (v: number | null) => (v === null ? '' : v);

/** The job hash's fields as the job store writes them (a finished job without its number, address and user agent). */
function hashOf(job: MovedJob): Record<string, string | number> {
  const { e164, clientIp, userAgent, department, ...request } = job.request;
  const p = job.progress;
  return {
    id: job.callbackId,
    requestedAs: job.requestedAs,
    stage: job.stage,
    state: job.state,
    due: job.dueAt,
    numberHash: job.numberHash,
    masked: job.maskedNumber,
    // A finished job keeps no number, address or user agent (the embedded store's purge may not have emptied them yet).
    ...(job.state === 'pending' && e164 !== null && { e164 }),
    department: department ?? '',
    ...(job.state === 'pending' && clientIp !== null && { clientIp }),
    ...(job.state === 'pending' && { userAgent: JSON.stringify(userAgent) }),
    request: JSON.stringify(request),
    cancel: job.cancelHash ?? '',
    attempts: job.attempts,
    owner: job.leaseOwner ?? '',
    lease: orEmpty(job.leaseExpiresAt),
    interrupted: job.interrupted ? '1' : '0',
    ...(job.outcome !== null && { outcome: job.outcome }),
    scheduledFor: orEmpty(p.scheduledFor),
    queuedAt: orEmpty(p.queuedAt),
    unreachable: p.unreachableTries,
    lastAttempt: orEmpty(p.lastAttemptAt),
    retriedUnknown: p.retriedUnknown ? '1' : '0',
    redials: p.redials,
    dueSince: orEmpty(p.dueSince),
    created: job.createdAt,
    updated: job.updatedAt,
  };
}

export function redisJobRecords(connection: RedisConnection, options: { retentionDays: number }): RecordSet<MovedJob> {
  const space = connection.keyspace('jobs');
  const keys = [`${space}ready`, `${space}pending`, `${space}numbers`];
  return {
    count: () => countKeys(connection, space, `${space}job:*`),
    async *read(nowMs) {
      for await (const batch of groupValues(connection, space, `${space}job:*`, 'hash')) {
        yield batch
          .map(([, h]) => h)
          .filter((h) => h.id !== undefined)
          .map((h): MovedJob => {
            const job = toJob(h);
            return { ...job, cancelHash: job.cancellable ? (h.cancel ?? null) : null };
          })
          .filter((job) => jobKept(job, options.retentionDays, nowMs));
      }
    },
    async write(jobs) {
      const answers = await Promise.all(
        jobs.map((job) => {
          const leased = job.leaseOwner !== null && job.leaseExpiresAt !== null && job.leaseExpiresAt > job.dueAt;
          const args = [
            space,
            job.callbackId,
            job.state,
            job.stage,
            job.dueAt,
            leased ? job.leaseExpiresAt! : job.dueAt,
            job.numberHash,
            orEmpty(jobExpiresAt(job, options.retentionDays)),
            job.state === 'failed' ? job.updatedAt : '',
            options.retentionDays * DAY_MS,
            ...Object.entries(hashOf(job)).flat(),
          ];
          return connection.evalScript('jobs.move.write', PUT, keys, args) as Promise<string[]>;
        }),
      );
      const written: RecordsWritten = { added: 0, replaced: 0, refused: [] };
      answers.forEach(([answer, holder], i) => {
        if (answer === 'added') written.added++;
        else if (answer === 'replaced') written.replaced++;
        else written.refused.push(`${jobs[i]!.callbackId}: the target holds another booking for its number (${holder})`);
      });
      return written;
    },
  };
}
