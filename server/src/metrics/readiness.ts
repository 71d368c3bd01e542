// Is the service answering? /readyz asks this, and load balancers ask /readyz often, so the probe
// (GET /sipstatus/online, the cheapest authenticated call) is cached for READY_CACHE_MS and
// single-flight: a flood of /readyz costs the service at most one request per period.
import type { CallTrackingClient } from '../calltracking/client.ts';
import type { Logger } from '../log/index.ts';

export interface ReadinessState {
  ready: boolean;
  /** Why not ready: 'draining' (shutting down) or the service failure's code. */
  reason?: string;
  checkedAt: number;
}

export interface Readiness {
  check(): Promise<ReadinessState>;
  /** Shutting down: not ready from now on, whatever the service says. */
  drain(): void;
  readonly draining: boolean;
}

export function createReadiness(
  client: Pick<CallTrackingClient, 'sipOnline'>,
  options: {
    cacheMs: number;
    log: Logger;
    now?: () => number;
    /** The shared store (Redis) answers: without it no callback can be taken, so not ready. */
    storeReady?: () => boolean;
  },
): Readiness {
  const now = options.now ?? Date.now;
  let last: ReadinessState | null = null;
  let inFlight: Promise<ReadinessState> | null = null;
  let draining = false;

  async function probe(): Promise<ReadinessState> {
    try {
      await client.sipOnline();
      last = { ready: true, checkedAt: now() };
    } catch (err) {
      const code = (err as { code?: unknown }).code;
      if (last?.ready !== false) options.log.warn('service not answering: not ready', { err });
      last = { ready: false, reason: typeof code === 'string' ? code : 'unknown', checkedAt: now() };
    }
    return last;
  }

  return {
    async check() {
      if (draining) return { ready: false, reason: 'draining', checkedAt: now() };
      // Asked every time, not cached: the connection knows at once (no round trip).
      if (options.storeReady && !options.storeReady()) return { ready: false, reason: 'store_unavailable', checkedAt: now() };
      if (last && now() - last.checkedAt < options.cacheMs) return last;
      inFlight ??= probe().finally(() => {
        inFlight = null;
      });
      return inFlight;
    },
    drain() {
      draining = true;
    },
    get draining() {
      return draining;
    },
  };
}
