// The shape of the relay's background work (the held calls' runner, the lead webhook's delivery):
// one pass at a time; a nudge during a pass runs another right after it; after each pass the next
// is due after the delay the worker asks for. stop() waits for the pass under way.
import type { Timers } from './timers.ts';

export interface BackgroundWorker {
  start(): void;
  /** Something new is due: run a pass now (or right after the current one). */
  nudge(): void;
  stop(): Promise<void>;
}

export interface BackgroundWorkerOptions {
  pass: () => Promise<unknown>;
  /** Milliseconds until the next pass, asked after each one. */
  nextDelay: () => number | Promise<number>;
  timers: Timers;
  /** A pass failed (it runs again at the next delay). */
  onError: (err: unknown) => void;
}

export function createBackgroundWorker(options: BackgroundWorkerOptions): BackgroundWorker {
  const { timers } = options;
  let running: Promise<void> | null = null;
  let again = false;
  let stopped = true;
  let timer: unknown = null;

  function cycle(): void {
    if (running) {
      again = true;
      return;
    }
    if (timer !== null) timers.clearTimeout(timer);
    timer = null;
    running = (async () => {
      do {
        again = false;
        await options.pass().catch(options.onError);
      } while (again && !stopped);
      const delay = await options.nextDelay();
      if (!stopped) timer = timers.setTimeout(cycle, delay);
    })().finally(() => {
      running = null;
    });
  }

  return {
    start() {
      if (!stopped) return;
      stopped = false;
      cycle();
    },
    nudge() {
      if (!stopped) cycle();
    },
    async stop() {
      stopped = true;
      if (timer !== null) timers.clearTimeout(timer);
      timer = null;
      await running;
    },
  };
}
