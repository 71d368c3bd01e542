// The operators' command for the stores (read from the same environment as the relay):
//   npm run store -- backup <file>    a consistent copy of the embedded store (DATA_DIR), taken while the relay runs
//   npm run store -- restore <file>   puts a backup in DATA_DIR as the store (every relay stopped)
//   npm run store -- move embedded redis [--merge]   every record from DATA_DIR to Redis (every relay stopped)
//   npm run store -- move redis embedded [--merge]   and back
// It prints what it did as JSON on stdout (the file's schema version and rows per table; what was
// moved per kind); log lines go to stderr. The exit code is 0 when done, 2 for a usage mistake
// (with a line that says what is expected), 1 when a store or the file failed (or a move refused).
// Backup and restore are for the embedded store: Redis keeps its own (RDB snapshots, AOF).
import { ConfigError, loadConfig } from '../config/index.ts';
import { backupStore, restoreStore } from '../storage/sqlite/backup.ts';
import { runMove, STORE_NAMES, type StoreName } from './move-command.ts';

const USAGE = 'usage: npm run store -- backup <file> | restore <file> | move embedded redis [--merge] | move redis embedded [--merge]';
/** Stand-ins for the service settings the relay needs to start: this command never calls the service. */
const NO_SERVICE = { baseUrl: 'http://127.0.0.1:9', authKey: 'not-used-by-this-command', projectId: '1', caller: '380441112233' };

class UsageError extends Error {}

const note = (line: string) => process.stderr.write(`${line}\n`);
const print = (value: unknown) => process.stdout.write(`${JSON.stringify(value, null, 2)}\n`);
const config = () => loadConfig(process.env, NO_SERVICE, { projectId: NO_SERVICE.projectId, caller: NO_SERVICE.caller });

async function move(args: readonly string[]): Promise<number> {
  const [from, to, ...rest] = args;
  const merge = rest.length === 1 && rest[0] === '--merge';
  if (!STORE_NAMES.includes(from as StoreName) || !STORE_NAMES.includes(to as StoreName) || from === to || (rest.length > 0 && !merge)) throw new UsageError(USAGE);
  const settings = config();
  if (!settings.redis) throw new UsageError('REDIS_URL (or REDIS_SENTINELS) is not set: a move needs the Redis settings the relays use, beside DATA_DIR');
  const { summary, problems } = await runMove(settings, from as StoreName, merge, note);
  print(summary);
  for (const problem of problems) note(problem);
  if (problems.length > 0) {
    note(
      `the move is not complete (${problems.length} problems above); the ${from} store is unchanged: start the relays on it again, or fix the target and move again with --merge`,
    );
    return 1;
  }
  note(
    `moved; start the relays on ${to === 'redis' ? 'Redis (REDIS_URL set)' : 'the embedded store (REDIS_URL unset, the same HASH_SECRET)'}. The ${from} store was left as it was.`,
  );
  return 0;
}

async function run(args: readonly string[]): Promise<number> {
  const [action, file] = args;
  if (action === 'move') return move(args.slice(1));
  if ((action !== 'backup' && action !== 'restore') || !file || args.length !== 2) throw new UsageError(USAGE);
  const settings = config();
  if (settings.redis) throw new UsageError('REDIS_URL is set: the state is in Redis, not in DATA_DIR; back Redis up with its own persistence (RDB, AOF)');
  const { dataDir } = settings.store;
  if (action === 'backup') {
    print(await backupStore(dataDir, file, () => note(`copying the store in ${dataDir} to ${file}`)));
    note('The backup holds full numbers of held calls and keyed hashes; keep it as private as DATA_DIR. Restoring it needs the same HASH_SECRET.');
  } else {
    const result = restoreStore(dataDir, file);
    print(result);
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
