// Who can answer right now, from `/sipstatus/online` and `/sipstatus/speaking`. Cached for a few
// seconds and single-flight, so a page full of visitors (or a flood) costs the service at most two
// requests per cache period. When the service fails, the last good answer is served as "cached";
// with none, the answer is "unknown" rather than a guess.
import type { CallTrackingClient } from '../calltracking/client.js';
import type { Logger } from '../log.js';

export interface AgentSnapshot {
  online: readonly string[];
  speaking: readonly string[];
  /** Online and not in a call. */
  free: readonly string[];
  fetchedAt: number;
  source: 'live' | 'cached' | 'unknown';
}

export interface AgentStatus {
  get(): Promise<AgentSnapshot>;
}

export function createAgentStatus(
  client: Pick<CallTrackingClient, 'sipOnline' | 'sipSpeaking'>,
  options: { cacheMs: number; log: Logger; now?: () => number },
): AgentStatus {
  const now = options.now ?? Date.now;
  let last: AgentSnapshot | null = null;
  /** `last` as answered from the cache, made once per fetch rather than once per request. */
  let lastCached: AgentSnapshot | null = null;
  let inFlight: Promise<AgentSnapshot> | null = null;

  async function fetchFresh(): Promise<AgentSnapshot> {
    try {
      const [online, speaking] = await Promise.all([client.sipOnline(), client.sipSpeaking()]);
      const busy = new Set(speaking);
      last = { online, speaking, free: online.filter((login) => !busy.has(login)), fetchedAt: now(), source: 'live' };
      lastCached = { ...last, source: 'cached' };
      return last;
    } catch (err) {
      options.log.warn('agent status unavailable', { err });
      if (last) return { ...last, source: 'cached' };
      return { online: [], speaking: [], free: [], fetchedAt: now(), source: 'unknown' };
    }
  }

  return {
    async get() {
      if (last && lastCached && now() - last.fetchedAt < options.cacheMs) return lastCached;
      inFlight ??= fetchFresh().finally(() => {
        inFlight = null;
      });
      return inFlight;
    },
  };
}
