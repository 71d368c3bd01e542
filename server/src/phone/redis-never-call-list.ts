// NeverCallList in Redis, shared by every relay: one hash under the keyspace group "nevercall",
//   <space>numbers   numberHash → when it was listed (ms). No TTL: the owner's word does not expire.
import type { RedisConnection } from '../storage/redis/connection.ts';
import type { NeverCallList } from './never-call-list.ts';

export function createRedisNeverCallList(connection: RedisConnection): NeverCallList {
  const key = `${connection.keyspace('nevercall')}numbers`;
  const listedAt = async (hash: string) => {
    const at = await connection.run('nevercall.get', (c) => c.hGet(key, hash));
    return at === null || at === undefined ? null : Number(at);
  };
  return {
    async add(hash, at) {
      await connection.run('nevercall.add', (c) => c.hSetNX(key, hash, String(at)));
    },
    has: async (hash) => (await listedAt(hash)) !== null,
    listedAt,
  };
}
