// Polls one JSON path: one request at a time, slower while the tab is hidden, at once when it
// shows again or when the caller asks (after an action). The path is part of the key: a new
// path (another period) drops the old answer instead of showing it under the new heading.
import { useCallback, useEffect, useRef, useState } from 'preact/hooks';
import { getJson } from './api.ts';

export interface Polled<T> {
  data: T | null;
  error: string | null;
  /** Ask again now (after an action changed what the relay holds). */
  refresh: () => Promise<void>;
}

export function usePoll<T>(path: string | null, everyMs: number): Polled<T> {
  const [state, setState] = useState<{ path: string | null; data: T | null; error: string | null }>({ path, data: null, error: null });
  const tickRef = useRef<() => Promise<void>>(async () => {});

  useEffect(() => {
    if (path === null) return;
    let timer = 0;
    let running: Promise<void> | null = null;
    let stopped = false;
    const tick = (): Promise<void> => {
      clearTimeout(timer);
      running ??= getJson<T>(path)
        .then(
          (data) => {
            if (!stopped) setState({ path, data, error: null });
          },
          (err: unknown) => {
            const error = err instanceof Error ? err.message : String(err);
            if (!stopped) setState((s) => ({ path, data: s.path === path ? s.data : null, error }));
          },
        )
        .finally(() => {
          running = null;
          if (!stopped) timer = window.setTimeout(tick, document.hidden ? everyMs * 5 : everyMs);
        });
      return running as Promise<void>;
    };
    tickRef.current = tick;
    const onVisible = () => {
      if (!document.hidden) void tick();
    };
    document.addEventListener('visibilitychange', onVisible);
    void tick();
    return () => {
      stopped = true;
      clearTimeout(timer);
      document.removeEventListener('visibilitychange', onVisible);
    };
  }, [path, everyMs]);

  const refresh = useCallback(() => tickRef.current(), []);
  const current = state.path === path;
  return { data: current ? state.data : null, error: current ? state.error : null, refresh };
}
