// The operators' command for the embedded store (DATA_DIR, read from the same environment as the
// relay):
//   npm run store -- backup <file>    a consistent copy of the store, taken while the relay runs
//   npm run store -- restore <file>   puts a backup in DATA_DIR as the store (every relay stopped)
// It prints what the file holds (schema version, rows per table) as JSON on stdout; log lines go to
// stderr. The exit code is 0 when done, 2 for a usage mistake (with a line that says what is
// expected), 1 when the store or the file failed. With REDIS_URL there is no embedded store:
// Redis keeps its own (RDB snapshots, AOF).
import { ConfigError, loadConfig } from '../config/index.ts';
import { backupStore, restoreStore } from '../storage/sqlite/backup.ts';

const USAGE = 'usage: npm run store -- backup <file> | restore <file>';
/** Stand-ins for the service settings the relay needs to start: this command never calls the service. */
const NO_SERVICE = { baseUrl: 'http://127.0.0.1:9', authKey: 'not-used-by-this-command', projectId: '1', caller: '380441112233' };

class UsageError extends Error {}

async function run(args: readonly string[]): Promise<number> {
  const [action, file] = args;
  if ((action !== 'backup' && action !== 'restore') || !file || args.length !== 2) throw new UsageError(USAGE);
  const config = loadConfig(process.env, NO_SERVICE, { projectId: NO_SERVICE.projectId, caller: NO_SERVICE.caller });
  if (config.redis) throw new UsageError('REDIS_URL is set: the state is in Redis, not in DATA_DIR; back Redis up with its own persistence (RDB, AOF)');
  const { dataDir } = config.store;
  const note = (line: string) => process.stderr.write(`${line}\n`);
  if (action === 'backup') {
    const summary = await backupStore(dataDir, file, () => note(`copying the store in ${dataDir} to ${file}`));
    process.stdout.write(`${JSON.stringify(summary, null, 2)}\n`);
    note('The backup holds full numbers of held calls and keyed hashes; keep it as private as DATA_DIR. Restoring it needs the same HASH_SECRET.');
  } else {
    const result = restoreStore(dataDir, file);
    process.stdout.write(`${JSON.stringify(result, null, 2)}\n`);
    if (result.previous) note(`the store it replaced is kept at ${result.previous}`);
  }
  return 0;
}

run(process.argv.slice(2)).then(
  (code) => process.exit(code),
  (err: unknown) => {
    const usage = err instanceof UsageError || err instanceof ConfigError;
    process.stderr.write(`${usage ? '' : 'failed: '}${err instanceof Error ? err.message : String(err)}\n`);
    process.exit(usage ? 2 : 1);
  },
);
