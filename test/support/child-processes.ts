// Servers and relays a test starts as child processes: killed when the test process exits, even
// after a failure skipped the test's own cleanup, so no run leaves a server behind.
import type { ChildProcess } from 'node:child_process';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

const running = new Set<ChildProcess>();
process.once('exit', () => {
  for (const child of running) child.kill('SIGKILL');
});

/** Registers `child` to be killed at exit (until it exits by itself); returns it. */
export function killOnExit<T extends ChildProcess>(child: T): T {
  running.add(child);
  child.once('exit', () => running.delete(child));
  return child;
}

/**
 * The environment a node child of this repository's code is given (a relay, the store command):
 * Node's compile cache, in Node's own default folder, so each start after the first reads the
 * modules' compiled code (and their stripped TypeScript) from disk instead of compiling them again,
 * about a third less of a relay's start. A relay killed with SIGKILL never writes it: the system
 * project fills it once before its first test (test/tools/warm-compile-cache.ts).
 */
export const COMPILE_CACHE_ENV = { NODE_COMPILE_CACHE: join(tmpdir(), 'node-compile-cache') };
