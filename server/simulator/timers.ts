// Every timer the simulator starts goes through here, so reset() and close() can cancel them all
// and a test process never keeps running because a simulated call is still "talking".

export interface Timers {
  after(ms: number, fn: () => void): void;
  every(ms: number, fn: () => void): void;
  cancelAll(): void;
  /** cancelAll, and ignore every later request: work finishing after close() starts nothing new. */
  stop(): void;
}

export function createTimers(): Timers {
  const live = new Set<NodeJS.Timeout>();
  let stopped = false;
  const cancelAll = () => {
    for (const t of live) clearTimeout(t);
    live.clear();
  };
  return {
    after(ms, fn) {
      if (stopped) return;
      const t = setTimeout(
        () => {
          live.delete(t);
          fn();
        },
        Math.max(0, ms),
      );
      live.add(t);
    },
    every(ms, fn) {
      if (stopped) return;
      const t = setInterval(fn, ms);
      live.add(t);
    },
    cancelAll,
    stop() {
      stopped = true;
      cancelAll();
    },
  };
}
