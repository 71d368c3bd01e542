// GET /api/status: can anyone answer now? Agents from the cached SIP status, hours from the schedule,
// and the open windows of the coming days (SCHEDULE_MAX_DAYS) for the widget's time picker; with
// DEPARTMENTS_FILE, the same for each department (its own agents and hours), the top level being
// the first department's.
import type { DepartmentStatus, StatusResponse } from '../contract/contract.ts';
import type { AppContext } from '../app/app-context.ts';
import { json, serialized, type Reply } from '../http/reply.ts';
import type { Handler } from '../http/router.ts';
import type { RouteModule } from './index.ts';
import type { AgentSnapshot } from '../calltracking/agent-status.ts';
import type { Department } from '../departments/department.ts';
import type { OfficeState } from '../schedule/office-hours.ts';
import type { OpenWindow } from '../schedule/open-windows.ts';

const noStore = Object.freeze({ 'cache-control': 'no-store' });

/** The office hours a reply was made from: the same objects within a minute (office-hours.ts). */
interface Hours {
  office: OfficeState;
  windows: readonly OpenWindow[];
}

const isoWindows = (windows: readonly OpenWindow[]) => windows.map((w) => ({ opensAt: w.opensAt.toISOString(), closesAt: w.closesAt.toISOString() }));

/** Unknown agent state is not "nobody": let the visitor try, the service decides. */
const canAnswer = (agents: AgentSnapshot, free: readonly string[]) => agents.source === 'unknown' || free.length > 0;

function departmentStatus(department: Department, agents: AgentSnapshot, { office, windows }: Hours): DepartmentStatus {
  const logins = department.agents;
  const free = logins === null ? agents.free : agents.free.filter((login) => logins.includes(login));
  return {
    id: department.id,
    name: { ...department.name },
    available: office.openNow && canAnswer(agents, free),
    openNow: office.openNow,
    nextOpenAt: office.nextOpenAt?.toISOString() ?? null,
    windows: isoWindows(windows),
  };
}

function statusHandler(app: AppContext): Handler {
  const { settings } = app.departments;
  // Every page with the widget asks, and the answer changes only with a new agent snapshot (every
  // STATUS_CACHE_MS at most) or a new office state (a minute at most): the last reply is kept for
  // what it was made from, its body already JSON.
  let madeFrom: { agents: AgentSnapshot; hours: Hours[] } | null = null;
  let lastReply: Reply | null = null;
  const sameHours = (a: Hours[], b: Hours[]) => a.every((h, i) => h.office === b[i]!.office && h.windows === b[i]!.windows);
  const replyFor = (agents: AgentSnapshot, hours: Hours[]): Reply => {
    if (lastReply && madeFrom?.agents === agents && sameHours(madeFrom.hours, hours)) return lastReply;
    const departments = settings.list.map((d, i) => departmentStatus(d, agents, hours[i]!));
    // The top level is the first department: the one a request naming none is placed with.
    const { available, openNow, nextOpenAt, windows } = departments[0]!;
    const body: StatusResponse = {
      available,
      agentsOnline: agents.online.length,
      agentsFree: agents.free.length,
      openNow,
      nextOpenAt,
      source: agents.source,
      windows,
      ...(settings.fromFile && { departments }),
    };
    madeFrom = { agents, hours };
    lastReply = serialized(json(200, body, noStore));
    return lastReply;
  };

  return (rc) => {
    rc.repeatable = true;
    const now = app.now();
    const hours = settings.list.map((d): Hours => {
      const office = app.departments.officeOf(d);
      return { office: office.stateAt(now), windows: office.windowsAt(now) };
    });
    const known = app.agents.peek();
    // Answered at once from the cache; the service is asked (single-flight) only when it is stale.
    return known ? replyFor(known, hours) : app.agents.get().then((agents) => replyFor(agents, hours));
  };
}

/** Public state (open or not), read by every page with the widget: an Origin is optional, a foreign one refused. */
export const statusRoutes: RouteModule = (app) => [{ path: '/api/status', origin: 'optional', methods: { GET: statusHandler(app) } }];
