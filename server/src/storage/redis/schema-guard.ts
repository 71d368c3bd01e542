// A relay does not start beside a relay of another Redis schema version on the same REDIS_PREFIX
// (check-key.ts). Decision: relays of two versions must not share a Redis, rather than promising
// that they may: before this version Redis recorded no schema, so a relay cannot tell what an older
// one writes or expects to read, and every store test runs one version at a time. An upgrade on
// Redis is: stop every relay, then start the new ones (docs/operations.md, "Upgrading"). A rolling
// restart of one version (the same schema) goes on as before.
//
// The relay watches the write-check key before it starts its own connection: a value other than
// its own written while it watched is a relay of another version running. A Redis that cannot be
// reached at start is not waited for (the relay starts, and says not ready until Redis is back):
// the guard is skipped then, with a warning.
import type { RedisSettings } from '../../config/redis.ts';
import { CHECK_VALUE, watchCheckKey } from './check-key.ts';

export class OtherVersionRunning extends Error {}

/** Throws OtherVersionRunning when a relay of another schema version runs on `settings`' prefix; false when Redis could not be asked. */
export async function assertOneSchemaVersion(settings: RedisSettings): Promise<boolean> {
  let foreign: string[];
  try {
    foreign = (await watchCheckKey(settings, 'dialback-relay-start')).foreign;
  } catch {
    return false;
  }
  if (foreign.length === 0) return true;
  const theirs = foreign.map((v) => (v === '1' ? 'a relay from before Redis schema versions were recorded' : `"${v}"`)).join(', ');
  throw new OtherVersionRunning(
    `a relay of another version is running on this Redis (REDIS_PREFIX ${settings.prefix}: ${theirs}; this relay writes "${CHECK_VALUE}"): relays of two versions must not share a Redis; stop every relay of the other version, then start this one (docs/operations.md, Upgrading)`,
  );
}
