// /__sim/…: control endpoints for standalone use (the same powers tests get from the Simulator object).
// They require the Auth-key like everything else and are never faulted.
//   GET    /__sim/calls                     the call log (SimCall objects)
//   POST   /__sim/calls/seed                {count, from?, to?, overrides?}  (from/to ISO 8601)
//   GET    /__sim/agents                    agents and their state
//   POST   /__sim/agents/<login>            {online: boolean}
//   GET    /__sim/faults                    active faults
//   POST   /__sim/faults                    {target, fault}
//   DELETE /__sim/faults[?target=…]         clear one or all
//   POST   /__sim/routing                   a routing scheme;  DELETE /__sim/routing clears it
//   POST   /__sim/inbound                   {from, to?}: an inbound call through the routing scheme
//   POST   /__sim/reset                     calls, requests, faults cleared
import { z } from 'zod';
import type { SimRequest } from '../context.ts';
import { json, methodNotAllowed, restError, type Reply } from '../http-kit.ts';
import { MAX_SEED } from '../seed.ts';
import type { Fault, FaultTarget, Simulator } from '../types.ts';

const SeedBody = z.object({
  count: z.number().int().min(0).max(MAX_SEED),
  from: z.iso.datetime({ offset: true }).optional(),
  to: z.iso.datetime({ offset: true }).optional(),
  overrides: z.record(z.string(), z.union([z.string(), z.number(), z.boolean()])).optional(),
});
const OnlineBody = z.object({ online: z.boolean() });
const FaultBody = z.object({ target: z.string(), fault: z.object({ kind: z.string() }).passthrough() });
const InboundBody = z.object({ from: z.string().min(1).max(32), to: z.string().min(1).max(32).optional() });
const SchemeBody = z.object({
  name: z.string().min(1).max(100).optional(),
  url: z.string().url(),
  method: z.enum(['GET', 'POST', 'PUT', 'DELETE']),
  submission: z.enum(['http', 'json']),
  import: z.enum(['http', 'json']),
  destinationField: z.string().min(1).max(100).optional(),
  timeoutSeconds: z.number().positive().max(60).optional(),
  params: z.record(z.string(), z.string()).optional(),
});

function parseBody<T>(schema: z.ZodType<T>, body: string): T | string {
  let value: unknown;
  try {
    value = JSON.parse(body || '{}');
  } catch {
    return 'body must be JSON';
  }
  const result = schema.safeParse(value);
  if (result.success) return result.data;
  const issue = result.error.issues[0];
  return `invalid body: ${issue ? `${issue.path.join('.') || '(root)'}: ${issue.message}` : 'unknown problem'}`;
}

export async function control(sim: Simulator, request: SimRequest): Promise<Reply> {
  const path = request.url.pathname.replace(/^\/__sim/, '');
  const { method } = request;

  if (path === '/calls') {
    if (method !== 'GET') return methodNotAllowed(['GET']);
    return json(200, sim.calls);
  }
  if (path === '/calls/seed') {
    if (method !== 'POST') return methodNotAllowed(['POST']);
    const body = parseBody(SeedBody, request.body);
    if (typeof body === 'string') return restError(400, body);
    const rows = sim.seedCalls(body.count, {
      from: body.from ? new Date(body.from) : undefined,
      to: body.to ? new Date(body.to) : undefined,
      overrides: body.overrides,
    });
    return json(200, { seeded: rows.length });
  }
  if (path === '/agents') {
    if (method !== 'GET') return methodNotAllowed(['GET']);
    return json(200, sim.agents.list());
  }
  const agentPath = /^\/agents\/([^/]+)$/.exec(path);
  if (agentPath) {
    if (method !== 'POST') return methodNotAllowed(['POST']);
    const body = parseBody(OnlineBody, request.body);
    if (typeof body === 'string') return restError(400, body);
    const login = decodeURIComponent(agentPath[1] ?? '');
    if (!sim.agents.list().some((a) => a.login === login)) return restError(404, 'no agent with that login');
    sim.agents.setOnline(login, body.online);
    return json(200, sim.agents.list());
  }
  if (path === '/faults') {
    if (method === 'GET') return json(200, sim.faults.list());
    if (method === 'DELETE') {
      const target = request.url.searchParams.get('target');
      try {
        sim.faults.clear((target ?? undefined) as FaultTarget | undefined);
      } catch (error) {
        return restError(400, (error as Error).message);
      }
      return json(200, sim.faults.list());
    }
    if (method !== 'POST') return methodNotAllowed(['GET', 'POST', 'DELETE']);
    const body = parseBody(FaultBody, request.body);
    if (typeof body === 'string') return restError(400, body);
    try {
      sim.faults.set(body.target as FaultTarget, body.fault as Fault);
    } catch (error) {
      return restError(400, (error as Error).message);
    }
    return json(200, sim.faults.list());
  }
  if (path === '/routing') {
    if (method === 'DELETE') {
      sim.routing.clear();
      return json(200, { scheme: null });
    }
    if (method !== 'POST') return methodNotAllowed(['POST', 'DELETE']);
    const body = parseBody(SchemeBody, request.body);
    if (typeof body === 'string') return restError(400, body);
    try {
      sim.routing.configure(body);
    } catch (error) {
      return restError(400, (error as Error).message);
    }
    return json(200, { scheme: sim.routing.scheme });
  }
  if (path === '/inbound') {
    if (method !== 'POST') return methodNotAllowed(['POST']);
    const body = parseBody(InboundBody, request.body);
    if (typeof body === 'string') return restError(400, body);
    const result = await sim.routing.simulateInboundCall(body);
    return json(200, { destination: result.destination, reason: result.reason, status: result.status, uniqueid: result.call.uniqueid });
  }
  if (path === '/reset') {
    if (method !== 'POST') return methodNotAllowed(['POST']);
    sim.reset();
    return json(200, { reset: true });
  }
  return restError(404, 'no such control endpoint');
}
