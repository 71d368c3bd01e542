// A rolling upgrade on Redis with real relay processes: a relay of the previous version (the code
// before Redis recorded its schema version, taken from git) runs and takes bookings; a relay of
// this version refuses to start beside it, saying why. Once the old relay is stopped, two relays
// of this version start side by side (one version may share a Redis) and place each call the old
// one booked exactly once.
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSimulator, type Simulator } from '../../../server/simulator/index.ts';
import { postCallback } from '../../support/post-callback.ts';
import { startRedisServer, type RedisServer } from '../../support/redis-server.ts';
import { clientIp, relayEnv, startRelay, waitUntil, type RelayProcess, untilReady } from '../../support/relay-processes.ts';
import { QUICK_CALLS } from '../../support/system.ts';

const git = (...args: string[]) => execFileSync('git', args, { encoding: 'utf8' }).trim();

/** The relay as it was before the commit that began recording the Redis schema (HEAD while that commit is not made yet). */
function previousVersion(): { dir: string; commit: string } {
  const added = git('log', '-1', '--format=%H', '--diff-filter=A', '--', 'server/src/storage/redis/check-key.ts');
  const commit = added ? git('rev-parse', `${added}^`) : git('rev-parse', 'HEAD');
  const dir = mkdtempSync(join(tmpdir(), 'dialback-previous-'));
  execFileSync('sh', ['-c', `git archive ${commit} server package.json | tar -x -C "${dir}"`]);
  symlinkSync(resolve('node_modules'), join(dir, 'node_modules'));
  return { dir, commit };
}

let redis: RedisServer;
let sim: Simulator & { url: string; close(): Promise<void> };
let previous: { dir: string; commit: string };
const relays: RelayProcess[] = [];

beforeAll(async () => {
  previous = previousVersion();
  redis = await startRedisServer({ persistent: false });
  sim = (await startSimulator({ port: 0, host: '127.0.0.1', timing: QUICK_CALLS })) as typeof sim;
});
afterAll(async () => {
  await Promise.all(relays.map((r) => r.kill()));
  await sim?.close();
  await redis?.stop();
  if (previous) rmSync(previous.dir, { recursive: true, force: true });
});

const ready = (relay: RelayProcess) => untilReady(relay, 'a relay ready on Redis');

describe('a rolling upgrade on one Redis', () => {
  it('the new relay refuses to start beside a relay of the previous version; once it is stopped, new relays place each call it booked once', async () => {
    const env = { ...relayEnv(sim, { REDIS_URL: redis.url, REDIS_PREFIX: 'upgrade:' }), CALL_RING_SECONDS: '1', REDIAL_ATTEMPTS: '0', LIMIT_PREFIX_RATE: '65000' };
    const old = await startRelay(env, { cwd: previous.dir });
    relays.push(old);
    await ready(old);
    const phones = ['050 765 43 31', '050 765 43 32', '050 765 43 33'];
    const scheduledFor = new Date(Date.now() + 20_000).toISOString();
    for (const [i, phone] of phones.entries()) {
      const res = await postCallback(old, { phone, consent: true, scheduledFor }, { forwardedFor: clientIp(i) });
      expect(res.status, res.text).toBe(202);
    }

    // This one watches the check key with the default 1 s interval (2.5 s), so the old relay (every
    // 100 ms) is seen even on a loaded machine.
    await expect(startRelay({ ...env, REDIS_CHECK_MS: '1000' })).rejects.toThrow(
      /a relay of another version is running on this Redis \(REDIS_PREFIX upgrade:: a relay from before Redis schema versions were recorded/,
    );

    await old.kill('SIGTERM');
    const next = await Promise.all([startRelay(env), startRelay(env)]);
    relays.push(...next);
    for (const relay of next) await ready(relay);
    const placed = () => sim.calls.map((c) => c.caller);
    const expected = phones.map((p) => `380${p.replaceAll(' ', '').slice(1)}`);
    await waitUntil(() => expected.every((n) => placed().includes(n)), 'the booked calls to be placed', 60_000);
    // Both relays looked at the store again meanwhile (every 2 s): a second call would have come.
    await new Promise((r) => setTimeout(r, 4_000));
    expect(placed().sort()).toEqual(expected.sort());
    expect(next.flatMap((r) => r.lines().filter((l) => l.msg === 'held call placed'))).toHaveLength(3);
  }, 120_000);
});
