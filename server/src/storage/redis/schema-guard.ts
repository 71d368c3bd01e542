// A relay does not start beside a relay of another Redis schema version on its REDIS_PREFIX: it
// watches the write-check key (check-key.ts) before opening its own connection. A Redis that cannot
// be reached at start is not waited for: the guard is skipped, with a warning. Why two versions
// must not share a Redis: storage/README.md, "The write check's key".
import type { RedisSettings } from '../../config/redis.ts';
import { CHECK_VALUE, watchCheckKey } from './check-key.ts';

export class OtherVersionRunning extends Error {}

/** Throws OtherVersionRunning when a relay of another schema version runs on `settings`' prefix; false when Redis could not be asked. */
export async function assertOneSchemaVersion(settings: RedisSettings): Promise<boolean> {
  let foreign: string[];
  try {
    // One connection attempt's time: a relay never waits longer than that for Redis at start.
    foreign = (await watchCheckKey(settings, 'dialback-relay-start', settings.connectTimeoutMs)).foreign;
  } catch {
    return false;
  }
  if (foreign.length === 0) return true;
  const theirs = foreign.map((v) => (v === '1' ? 'a relay from before Redis schema versions were recorded' : `"${v}"`)).join(', ');
  throw new OtherVersionRunning(
    `a relay of another version is running on this Redis (REDIS_PREFIX ${settings.prefix}: ${theirs}; this relay writes "${CHECK_VALUE}"): relays of two versions must not share a Redis; stop every relay of the other version, then start this one (docs/operations.md, Upgrading)`,
  );
}
