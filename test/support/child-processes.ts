// Servers and relays a test starts as child processes: killed when the test process exits, even
// after a failure skipped the test's own cleanup, so no run leaves a server behind.
import type { ChildProcess } from 'node:child_process';

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
