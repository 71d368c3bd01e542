// Everything a prefix holds in Redis, read back as text (each key with its value, whatever its type),
// on every node (SCAN visits one): what a test searches for a number that must be gone.
import { createClient } from 'redis';

async function keysAndValues(url: string, prefix: string): Promise<string[]> {
  const c = createClient({ url });
  await c.connect();
  const out: string[] = [];
  for await (const keys of c.scanIterator({ MATCH: `${prefix}*`, COUNT: 1000 })) {
    for (const key of keys) {
      const type = await c.type(key);
      const value =
        type === 'string'
          ? await c.get(key)
          : type === 'hash'
            ? await c.hGetAll(key)
            : type === 'zset'
              ? await c.zRangeWithScores(key, 0, -1)
              : type === 'set'
                ? await c.sMembers(key)
                : type === 'list'
                  ? await c.lRange(key, 0, -1)
                  : type;
      out.push(`${key} ${JSON.stringify(value)}`);
    }
  }
  c.destroy();
  return out;
}

/** Every key of `prefix` with its value, one line each, from every node in `nodeUrls`. */
export async function redisContents(nodeUrls: readonly string[], prefix: string): Promise<string[]> {
  return (await Promise.all(nodeUrls.map((url) => keysAndValues(url, prefix)))).flat();
}
