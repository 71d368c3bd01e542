// LeadTally in Redis, shared by every relay. Keys, under the keyspace for the group "notify" (one
// hash tag, one Cluster slot):
//   <prefix>{<prefix>notify}:leads   sorted set callbackId → when the visitor asked
//   <prefix>{<prefix>notify}:lead    hash callbackId → JSON [utm source, standing]
// One script writes a lead and forgets those past the week, a hundred at a time.
import type { RedisConnection } from '../../storage/redis/connection.ts';
import { luaFile } from '../../storage/redis/lua-file.ts';
import { sourceOf, sumRows, TALLY_KEEP_MS, type LeadTally, type TallyOutcome } from './lead-tally.ts';

const RECORD = luaFile(new URL('./redis-lead-tally/record.lua', import.meta.url));

export function createRedisLeadTally(options: { connection: RedisConnection }): LeadTally {
  const { connection } = options;
  const space = connection.keyspace('notify');
  const keys = [`${space}leads`, `${space}lead`];
  return {
    async record(lead, nowMs) {
      await connection.evalScript('notify.record', RECORD, keys, [
        lead.callbackId,
        lead.createdAt,
        JSON.stringify([sourceOf(lead.utmSource), lead.outcome]),
        nowMs - TALLY_KEEP_MS,
      ]);
    },
    async count(fromMs, toMs) {
      const ids = await connection.run('notify.range', (c) => c.zRangeByScore(keys[0]!, fromMs, `(${toMs}`));
      if (ids.length === 0) return [];
      const values = await connection.run('notify.read', (c) => c.hmGet(keys[1]!, ids));
      return sumRows(
        values
          .filter((v): v is string => typeof v === 'string')
          .map((v) => {
            const [utmSource, outcome] = JSON.parse(v) as [string | null, TallyOutcome];
            return { utmSource, outcome };
          }),
      );
    },
  };
}
