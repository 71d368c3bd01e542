// Timers the relay's background work runs on: the log's repeat windows, the lead webhook's retries,
// the held calls' runner. Injected (AppDeps.timers) so tests move time on instead of waiting;
// in production, node's own timers, unref'd so none of them keeps a stopping process alive.
export interface Timers {
  setTimeout(fn: () => void, ms: number): unknown;
  clearTimeout(handle: unknown): void;
}

export const realTimers: Timers = {
  setTimeout: (fn, ms) => setTimeout(fn, ms).unref(),
  clearTimeout: (handle) => clearTimeout(handle as NodeJS.Timeout),
};
