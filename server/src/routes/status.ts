// GET /api/status: can anyone answer now? Agents from the cached SIP status, hours from the schedule.
import type { StatusResponse } from '../contract.js';
import type { AppContext } from '../app-context.js';
import { json } from '../http/reply.js';
import type { Handler } from '../http/router.js';

const noStore = Object.freeze({ 'cache-control': 'no-store' });

export function statusRoute(app: AppContext): Handler {
  return async (rc) => {
    // A foreign origin is refused; the relay adds the CORS headers of an allowed one to every answer.
    app.origins.check(rc.req, { required: false });
    const office = app.office.stateAt(app.now());
    const agents = await app.agents.get();
    const body: StatusResponse = {
      // Unknown agent state is not "nobody": let the visitor try, the service decides.
      available: office.openNow && (agents.source === 'unknown' || agents.free.length > 0),
      agentsOnline: agents.online.length,
      agentsFree: agents.free.length,
      openNow: office.openNow,
      nextOpenAt: office.nextOpenAt?.toISOString() ?? null,
      source: agents.source,
    };
    return json(200, body, noStore);
  };
}
