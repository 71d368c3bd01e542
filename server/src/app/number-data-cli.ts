// The operators' command for a visitor's data on request, the same two actions as
// GET and DELETE /owner/api/numbers/<E.164>, run against the relay's own store (DATA_DIR or
// REDIS_URL, read from the same environment as the relay):
//   npm run data -- show +380501234567     everything kept about the number, as JSON on stdout
//   npm run data -- erase +380501234567    erases it; prints what was erased and what is kept
// It never asks the call-tracking service. Log lines go to stderr; the exit code is 0 when done,
// 2 for a usage mistake (with a line that says what is expected), 1 when the store failed.
import { createAppContext } from './app-context.ts';
import { ConfigError, loadConfig, secretsOf } from '../config/index.ts';
import { RelayError } from '../contract/errors.ts';
import { createLogger } from '../log/index.ts';
import { openRedisStores } from './redis-stores.ts';
import { openEmbeddedStores, type RelayStores } from './relay-stores.ts';
import { keptHashSecret } from '../storage/hash-secret.ts';
import { eraseNumberData, numberData, readNumber } from '../number-data/number-data.ts';

const USAGE = 'usage: npm run data -- show|erase <number in E.164, e.g. +380501234567>';
/** Stand-ins for the service settings the relay needs to start: this command never calls the service. */
const NO_SERVICE = { baseUrl: 'http://127.0.0.1:9', authKey: 'not-used-by-this-command', projectId: '1', caller: '380441112233' };

async function run(args: readonly string[]): Promise<number> {
  const [action, number] = args;
  if ((action !== 'show' && action !== 'erase') || number === undefined || args.length !== 2) {
    process.stderr.write(`${USAGE}\n`);
    return 2;
  }
  const e164 = readNumber(number);
  let config = loadConfig(process.env, NO_SERVICE, { projectId: NO_SERVICE.projectId, caller: NO_SERVICE.caller });
  if (config.hash.generated) {
    const kept = keptHashSecret({ dataDir: config.store.dataDir, file: config.hash.file, create: config.redis === null });
    config = { ...config, hash: { ...config.hash, secret: kept.secret, generated: false } };
  }
  const log = createLogger({ level: config.log.level, secrets: secretsOf(config), write: (line) => process.stderr.write(`${line}\n`) });
  let stores: RelayStores;
  if (config.redis) {
    const redis = openRedisStores(config, log);
    if (!(await redis.connection.waitReady(config.redis.connectTimeoutMs))) {
      await redis.close();
      throw new Error('Redis did not answer (REDIS_URL)');
    }
    stores = redis;
  } else stores = openEmbeddedStores(config);
  try {
    const app = createAppContext({ config, log, stores });
    const result = action === 'show' ? await numberData(app, e164) : await eraseNumberData(app, e164);
    process.stdout.write(`${JSON.stringify(result, null, 2)}\n`);
    await app.client.close();
    return 0;
  } finally {
    await stores.close();
  }
}

run(process.argv.slice(2)).then(
  (code) => process.exit(code),
  (err: unknown) => {
    const usage = err instanceof RelayError || err instanceof ConfigError;
    process.stderr.write(`${usage ? '' : 'failed: '}${err instanceof Error ? err.message : String(err)}\n`);
    process.exit(usage ? 2 : 1);
  },
);
