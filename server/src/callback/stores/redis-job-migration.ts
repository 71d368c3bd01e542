// Jobs an older relay wrote to Redis (a `kind` and a JSON `notes`), rewritten into today's stage
// and progress fields (legacy-job.ts says how).
import type { RedisConnection } from '../../storage/redis/connection.ts';
import { legacyJobFields } from './legacy-job.ts';
import { MIGRATE } from './redis-job-scripts.ts';

/**
 * Rewrites the pending and failed jobs written before stages existed (a `kind` and a JSON `notes`)
 * into stage and progress fields, each in one script that leaves an already rewritten job alone:
 * safe to run on every start and from several relays at once. Finished jobs that no index holds
 * keep their old fields until they expire; reading them derives the same stage (toJob).
 */
export async function migrateLegacyJobs(connection: RedisConnection): Promise<number> {
  const space = connection.keyspace('jobs');
  const ids = await connection.run('jobs.migrate.list', async (c) => [...new Set([...(await c.zRange(`${space}pending`, 0, -1)), ...(await c.zRange(`${space}failed`, 0, -1))])]);
  let rewritten = 0;
  for (const id of ids) {
    const stored = await connection.run('jobs.migrate.read', (c) => c.hGetAll(`${space}job:${id}`));
    if (stored.stage !== undefined || stored.id === undefined) continue;
    const fields = Object.entries(legacyJobFields(stored)).flat();
    rewritten += (await connection.evalScript('jobs.migrate', MIGRATE, [`${space}ready`, `${space}pending`, `${space}numbers`], [space, id, ...fields])) as number;
  }
  return rewritten;
}
