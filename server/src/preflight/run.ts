// The pre-flight: `node server/src/main.ts --check` (or `npm run check`) reads the settings the relay
// would start with and checks, without taking a call, what would otherwise fail with the first
// visitor: the service and the Auth-key, the clock, Redis (topology, eviction, replicas) or the
// embedded store, and the settings an internet-facing relay needs. One line per check, each failure
// with what to do; exit 0 only when every check passes.
import type { Config } from '../config/index.ts';
import { type Check, fail, lineOf } from './check.ts';
import { checkRedis } from './redis.ts';
import { checkService } from './service.ts';
import { checkSettings } from './settings.ts';
import { checkEmbeddedStore } from './store.ts';

export async function runPreflight(config: Config, write: (line: string) => void, now: () => number = Date.now): Promise<number> {
  const checks: Check[] = [];
  const add = (more: Check[]) => {
    for (const check of more) {
      checks.push(check);
      write(lineOf(check));
    }
  };
  // A setting that fell back to the simulator's value against a real service (the project id, the
  // caller): the relay only warns at start; the pre-flight does not pass it. Neither can be checked
  // with the service without placing a call.
  add(config.warnings.map((warning) => fail('settings', warning)));
  add(await checkService(config.service, now));
  add(config.redis ? await checkRedis(config.redis) : [checkEmbeddedStore(config.store.dataDir)]);
  add(checkSettings(config));
  const failed = checks.filter((c) => !c.ok).length;
  write(failed === 0 ? `all ${checks.length} checks passed` : `${failed} of ${checks.length} checks failed`);
  return failed === 0 ? 0 : 1;
}
