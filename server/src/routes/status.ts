// GET /api/status: can anyone answer now? Agents from the cached SIP status, hours from the schedule,
// and the open windows of the coming days (SCHEDULE_MAX_DAYS) for the widget's time picker.
import type { StatusResponse } from '../contract.ts';
import type { AppContext } from '../app-context.ts';
import { json, serialized, type Reply } from '../http/reply.ts';
import type { Handler } from '../http/router.ts';
import type { RouteModule } from './index.ts';
import type { AgentSnapshot } from '../calltracking/agent-status.ts';
import type { OfficeState } from '../schedule/office-hours.ts';
import type { OpenWindow } from '../schedule/open-windows.ts';

const noStore = Object.freeze({ 'cache-control': 'no-store' });

function statusHandler(app: AppContext): Handler {
  // Every page with the widget asks, and the answer changes only with a new agent snapshot (every
  // STATUS_CACHE_MS at most) or a new office state (a minute at most): the last reply is kept for
  // the pair it was made from, its body already JSON.
  let madeFrom: { agents: AgentSnapshot; office: OfficeState; windows: readonly OpenWindow[] } | null = null;
  let lastReply: Reply | null = null;
  const replyFor = (agents: AgentSnapshot, office: OfficeState, windows: readonly OpenWindow[]): Reply => {
    if (lastReply && madeFrom?.agents === agents && madeFrom.office === office && madeFrom.windows === windows) return lastReply;
    const body: StatusResponse = {
      // Unknown agent state is not "nobody": let the visitor try, the service decides.
      available: office.openNow && (agents.source === 'unknown' || agents.free.length > 0),
      agentsOnline: agents.online.length,
      agentsFree: agents.free.length,
      openNow: office.openNow,
      nextOpenAt: office.nextOpenAt?.toISOString() ?? null,
      source: agents.source,
      windows: windows.map((w) => ({ opensAt: w.opensAt.toISOString(), closesAt: w.closesAt.toISOString() })),
    };
    madeFrom = { agents, office, windows };
    lastReply = serialized(json(200, body, noStore));
    return lastReply;
  };

  return (rc) => {
    rc.repeatable = true;
    const now = app.now();
    const office = app.office.stateAt(now);
    const windows = app.office.windowsAt(now);
    const known = app.agents.peek();
    // Answered at once from the cache; the service is asked (single-flight) only when it is stale.
    return known ? replyFor(known, office, windows) : app.agents.get().then((agents) => replyFor(agents, office, windows));
  };
}

/** Public state (open or not), read by every page with the widget: an Origin is optional, a foreign one refused. */
export const statusRoutes: RouteModule = (app) => [{ path: '/api/status', origin: 'optional', methods: { GET: statusHandler(app) } }];
