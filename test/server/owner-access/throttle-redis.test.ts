// The wrong-token throttle across relays: two relays sharing one Redis (and a
// 3-primary Redis Cluster) count a guesser's wrong tokens together, so spreading guesses over the
// relays behind a balancer buys nothing; the right token from another network still opens the view.
import { afterEach, describe, expect, it } from 'vitest';
import { createLogger } from '../../../server/src/log/index.ts';
import { WRONG_TOKENS_PER_CLIENT } from '../../../server/src/owner-access/token-throttle.ts';
import { onRedis, redisRelaysPerTest } from '../../support/redis-relays.ts';
import { type RedisForTests, redisForTests } from '../../support/redis-test-connection.ts';
import { startSystem, type System } from '../../support/system.ts';

const TOKEN = 'owner_0123456789abcdef0123456789abcdef';
const oneRedis = redisForTests();
const redisCluster = redisForTests({ cluster: true });
let prefixes = 0;
let system: System | undefined;
const startRedisRelay = redisRelaysPerTest();
afterEach(async () => {
  await system?.close();
  system = undefined;
});

const quiet = createLogger({ level: 'warn', write: () => {} });
const relayOnRedis = async (s: System, redis: RedisForTests, prefix: string) => (await startRedisRelay(onRedis(s.config, redis, prefix), { log: quiet })).url;

const tryToken = (relay: string, token: string, ip: string) =>
  fetch(`${relay}/owner/api/view`, { headers: { 'x-owner-token': token, 'x-forwarded-for': ip } }).then((r) => r.status);

describe.each([
  ['one Redis', oneRedis],
  ['a 3-primary Redis Cluster', redisCluster],
])('wrong owner tokens on two relays sharing %s', (_name, redis) => {
  it('are counted together: past the limit the right token is the 404 on both; from another network it works', async () => {
    const s = (system = await startSystem({ OWNER_TOKEN: TOKEN, TRUSTED_PROXIES: '127.0.0.1' }, { store: 'memory' }));
    const prefix = `throttle${++prefixes}:`;
    const a = await relayOnRedis(s, redis, prefix);
    const b = await relayOnRedis(s, redis, prefix);
    expect(await tryToken(a, TOKEN, '198.51.100.7')).toBe(200);
    for (let i = 0; i < WRONG_TOKENS_PER_CLIENT; i++) expect(await tryToken(i % 2 ? a : b, `guess_${i}_0123456789abcdef0123456789abcdef`, '198.51.100.7')).toBe(404);
    expect(await tryToken(a, TOKEN, '198.51.100.7')).toBe(404);
    expect(await tryToken(b, TOKEN, '198.51.100.7')).toBe(404);
    expect(await tryToken(a, TOKEN, '203.0.113.9')).toBe(200);
    expect(await tryToken(b, TOKEN, '203.0.113.9')).toBe(200);
  });
});
