// GET /sipstatus/online and GET /sipstatus/speaking: JSON arrays of SIP logins, [] when none.
import type { SimContext, SimRequest } from '../context.ts';
import { json, methodNotAllowed, type Reply } from '../http-kit.ts';

export function sipStatus(ctx: SimContext, request: SimRequest, which: 'online' | 'speaking'): Reply {
  if (request.method !== 'GET') return methodNotAllowed(['GET']);
  return json(200, which === 'online' ? ctx.agents.online() : ctx.agents.speaking());
}
