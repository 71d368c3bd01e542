// How far behind the held calls are, read at each scrape: how long the held call due longest ago has
// waited. Age rather than count: ten calls due a second ago are a normal moment, one due ten
// minutes ago is a visitor nobody called back, and that is what an alert should say. Every relay
// reports the shared store's view, so alert on the max. (The lead webhook's backlog is told by its
// deliveries' outcomes instead: a CRM that is down is retried on schedule, so nothing is "late".)
import type { Registry } from './registry.ts';

export interface BacklogSources {
  /** Pending held calls, earliest due first (the job store's listPending). */
  jobs: { listPending(limit: number): Promise<Array<{ dueAt: number }>> };
  now: () => number;
}

export function watchBacklogs(registry: Registry, sources: BacklogSources): void {
  const heldLate = registry.gauge(
    'dialback_held_call_overdue_seconds',
    'How long the earliest-due held call (booked, queued, re-dial, outcome check) has been due; 0 when none is late.',
  );
  const lateness = (dueAt: number | undefined) => (dueAt === undefined ? 0 : Math.max(0, (sources.now() - dueAt) / 1000));
  registry.onCollect(async () => {
    // A store that cannot answer leaves the last figure: dialback_redis_up and dialback_ready say why.
    const pending = await sources.jobs.listPending(1).catch(() => null);
    if (pending) heldLate.set(lateness(pending[0]?.dueAt));
  });
}
