// Who can answer right now, from `/sipstatus/online` and `/sipstatus/speaking`: cached for a few
// seconds and single-flight, so a flood costs the service at most two requests per period; on failure
// the last good answer ("cached"), else "unknown", never a guess. With several relays one polls for all
// (shared-state/), and /api/status never waits for Redis. Details: calltracking/README.md.
import type { CallTrackingClient } from './client.ts';
import type { Logger } from '../log/index.ts';
import type { SharedPoll } from '../shared-state/shared-state.ts';

/** What one poll of the service gives (null: it failed), as shared between relays. */
export type SipPoll = { online: string[]; speaking: string[] } | null;

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
  /** The answer get() would give at once from its cache, or null when it would ask the service. */
  peek(): AgentSnapshot | null;
  /** The last good answer however old (as "cached"), or null when the service never answered. */
  lastKnown(): AgentSnapshot | null;
}

export function createAgentStatus(
  client: Pick<CallTrackingClient, 'sipOnline' | 'sipSpeaking'>,
  options: { cacheMs: number; log: Logger; now?: () => number; shared?: SharedPoll<SipPoll> },
): AgentStatus {
  const now = options.now ?? Date.now;
  let last: AgentSnapshot | null = null;
  /** What get() answers until askedAt + cacheMs: `last` as "cached", or "unknown" after a failure with none. Made once per fetch. */
  let cached: AgentSnapshot | null = null;
  let askedAt = -Infinity;
  let inFlight: Promise<AgentSnapshot> | null = null;

  async function poll(): Promise<SipPoll> {
    try {
      const [online, speaking] = await Promise.all([client.sipOnline(), client.sipSpeaking()]);
      return { online: [...online], speaking: [...speaking] };
    } catch (err) {
      options.log.warn('agent status unavailable', { err });
      return null;
    }
  }

  async function fetchFresh(): Promise<AgentSnapshot> {
    try {
      let got: { value: SipPoll; fetchedAt: number } | null;
      if (options.shared) {
        got = await options.shared.get(poll);
        // Another relay is polling and its answer is late: keep what we had for one more period.
        if (!got) return cached ?? (cached = { online: [], speaking: [], free: [], fetchedAt: now(), source: 'unknown' });
      } else {
        got = { value: await poll(), fetchedAt: now() };
      }
      if (got.value) {
        const { online, speaking } = got.value;
        const busy = new Set(speaking);
        last = { online, speaking, free: online.filter((login) => !busy.has(login)), fetchedAt: got.fetchedAt, source: 'live' };
        cached = { ...last, source: 'cached' };
        return last;
      }
      // A failure is cached like an answer: while the service is down, a flood still costs it
      // at most one pair of requests per cache period.
      if (!last) cached = { online: [], speaking: [], free: [], fetchedAt: now(), source: 'unknown' };
      return cached!;
    } finally {
      askedAt = now();
    }
  }

  const fresh = () => (cached && now() - askedAt < options.cacheMs ? cached : null);

  return {
    async get() {
      const known = fresh();
      if (known) return known;
      inFlight ??= fetchFresh().finally(() => {
        inFlight = null;
      });
      return inFlight;
    },
    peek: fresh,
    lastKnown: () => (last ? cached : null),
  };
}
