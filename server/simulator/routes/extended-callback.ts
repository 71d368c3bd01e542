// POST /a/v2: the extended callback, JSON-RPC 2.0 method `Api\V2\Callback.external`.
// Validation is strict on purpose, so relay drift shows up here rather than in production:
//   - bad/missing Auth-key, missing/invalid clientIp, wrong projectId (must be the project's id as a
//     string, as in the official sample)                               -> HTTP 403 + error object
//   - caller/callee empty or invalid, other params of the wrong type or value, unknown params
//                                                                     -> HTTP 400 + error object (-32602)
//   - not JSON (-32700), not a JSON-RPC 2.0 request with a numeric id (-32600), another method (-32601)
//                                                                     -> HTTP 200 + error object
//   - refusals (outbound ban, a callback to that number already in progress) -> HTTP 200 + error object
//   - success                                     -> HTTP 200 {"jsonrpc":"2.0","id":<id>,"result":{…}}
import { isIP } from 'node:net';
import { CALLBACK_METHOD, RPC, extendedCallbackResult } from '../assumptions.ts';
import { newCall } from '../call-log.ts';
import { isOutboundBanned, numberOrAgentLogin, type SimContext, type SimRequest } from '../context.ts';
import { authorized, json, methodNotAllowed, type Reply } from '../http-kit.ts';
import { maskNumber } from '../numbers.ts';
import type { SimCall } from '../types.ts';

type RpcId = number | null;
type RpcErrorKind = (typeof RPC)[keyof typeof RPC];

function rpcError(id: RpcId, kind: RpcErrorKind, message: string): Reply {
  return json(kind.http, { jsonrpc: '2.0', id, error: { code: kind.code, message } });
}

/** The request's id if the body is a JSON object with a numeric id (used by faults too). */
export function rpcIdOf(body: string): RpcId {
  try {
    return idOf(JSON.parse(body));
  } catch {
    return null; // not JSON: no id
  }
}

/** The id of an already parsed request: its numeric `id`, else null. */
function idOf(value: unknown): RpcId {
  if (value && typeof value === 'object' && 'id' in value && typeof value.id === 'number') return value.id;
  return null;
}

/** Optional string param -> the call-log field it fills; absent ones keep newCall's defaults. */
const OPTIONAL_FIELDS = {
  utmSource: 'utmSource',
  utmMedium: 'utmMedium',
  utmCampaign: 'utmCampaign',
  utmTerm: 'utmTerm',
  utmContent: 'utmContent',
  clientId: 'clientId',
  clientUserAgent: 'userAgent',
} as const satisfies Record<string, keyof SimCall>;
const OPTIONAL_STRINGS = Object.keys(OPTIONAL_FIELDS) as (keyof typeof OPTIONAL_FIELDS)[];
const KNOWN_PARAMS = new Set<string>(['caller', 'callee', 'caller_type', 'callee_type', 'direction', 'manager_dst', 'projectId', 'clientIp', ...OPTIONAL_STRINGS]);
const MAX_OPTIONAL_LENGTH = 1000;

export function extendedCallback(ctx: SimContext, request: SimRequest): Reply {
  if (request.method !== 'POST') return methodNotAllowed(['POST']);

  let parsed: unknown;
  let parseFailed = false;
  try {
    parsed = JSON.parse(request.body);
  } catch {
    parseFailed = true;
  }
  const id = idOf(parsed); // null when the body is not JSON (parsed stays undefined)

  if (!authorized(request.raw, ctx.authKey)) return rpcError(id, RPC.accessDenied, 'Access denied: invalid Auth-key');
  if (parseFailed) return rpcError(null, RPC.parseError, 'Parse error: the body is not valid JSON');

  if (Array.isArray(parsed)) return rpcError(null, RPC.invalidRequest, 'Invalid Request: batch requests are not supported');
  if (!parsed || typeof parsed !== 'object') return rpcError(null, RPC.invalidRequest, 'Invalid Request: expected a JSON-RPC 2.0 request object');
  const rpc = parsed as Record<string, unknown>;
  if (rpc.jsonrpc !== '2.0') return rpcError(id, RPC.invalidRequest, 'Invalid Request: jsonrpc must be "2.0"');
  // Finite too: JSON.parse turns an id like 1e999 into Infinity.
  if (typeof rpc.id !== 'number' || !Number.isFinite(rpc.id)) return rpcError(null, RPC.invalidRequest, 'Invalid Request: id must be a number');
  if (typeof rpc.method !== 'string') return rpcError(id, RPC.invalidRequest, 'Invalid Request: method must be a string');
  if (rpc.method !== CALLBACK_METHOD) {
    return rpcError(id, RPC.methodNotFound, `Method not found: ${JSON.stringify(rpc.method.slice(0, 80))} (expected ${JSON.stringify(CALLBACK_METHOD)})`);
  }
  const params = rpc.params;
  if (!params || typeof params !== 'object' || Array.isArray(params)) return rpcError(id, RPC.invalidParams, 'Invalid params: params must be an object');
  const p = params as Record<string, unknown>;

  // 403: the "main parameters" that identify and authorise the request.
  if (typeof p.projectId !== 'string' || p.projectId !== ctx.projectId) {
    return rpcError(id, RPC.accessDenied, 'Access denied: projectId does not match the project of this Auth-key (it is a string)');
  }
  if (typeof p.clientIp !== 'string' || isIP(p.clientIp.trim()) === 0) {
    return rpcError(id, RPC.accessDenied, 'Access denied: clientIp must be an IPv4 or IPv6 address');
  }

  // 400: the parties and the rest of the params.
  const unknown = Object.keys(p).find((k) => !KNOWN_PARAMS.has(k));
  if (unknown) return rpcError(id, RPC.invalidParams, `Invalid params: unknown parameter ${JSON.stringify(unknown.slice(0, 60))}`);
  const callerType = p.caller_type ?? 'default';
  const calleeType = p.callee_type ?? 'default';
  if (callerType !== 'default' && callerType !== 'scheme') return rpcError(id, RPC.invalidParams, 'Invalid params: caller_type must be "default" or "scheme"');
  if (calleeType !== 'default' && calleeType !== 'scheme') return rpcError(id, RPC.invalidParams, 'Invalid params: callee_type must be "default" or "scheme"');
  const caller = party(ctx, p.caller, callerType);
  if (!caller) return rpcError(id, RPC.invalidParams, 'Invalid params: caller is empty or not a valid number, SIP account or scheme');
  const callee = party(ctx, p.callee, calleeType);
  if (!callee) return rpcError(id, RPC.invalidParams, 'Invalid params: callee is empty or not a valid number, SIP account or scheme');
  const direction = p.direction ?? 'out';
  if (direction !== 'in' && direction !== 'out') return rpcError(id, RPC.invalidParams, 'Invalid params: direction must be "in" or "out"');
  const managerDst = p.manager_dst ?? 1;
  if (managerDst !== 0 && managerDst !== 1) return rpcError(id, RPC.invalidParams, 'Invalid params: manager_dst must be the number 0 or 1');
  for (const name of OPTIONAL_STRINGS) {
    const v = p[name];
    if (v !== undefined && (typeof v !== 'string' || v.length > MAX_OPTIONAL_LENGTH)) {
      return rpcError(id, RPC.invalidParams, `Invalid params: ${name} must be a string of at most ${MAX_OPTIONAL_LENGTH} characters`);
    }
  }

  // 200 refusals.
  if (isOutboundBanned(ctx, callee)) {
    return rpcError(id, RPC.outboundBan, 'Outbound calls to this number are not allowed for the project');
  }
  if (ctx.calls.some((c) => c.state !== 'ended' && c.visitor === callee)) {
    return rpcError(id, RPC.alreadyInProgress, 'A call to this number is already in progress');
  }

  const call = newCall({ origin: 'extended_callback', callType: 'callback', calldate: ctx.now(), caller: callee, dst: caller, visitor: callee });
  // Each present one was checked to be a string above.
  for (const [name, field] of Object.entries(OPTIONAL_FIELDS)) {
    if (p[name] !== undefined) call[field] = p[name] as string;
  }
  call.clientIp = (p.clientIp as string).trim();
  call.managerDst = managerDst;
  ctx.calls.push(call);

  // The caller side is the agents' side: a specific agent (by login or number) or the queue.
  const specific = ctx.agents.byLogin(caller)?.login ?? ctx.agents.byNumber(caller)?.login;
  if (managerDst === 1) ctx.lifecycle.agentFirst(call, specific);
  else ctx.lifecycle.visitorFirst(call);
  ctx.log({ msg: 'extended callback accepted', uniqueid: call.uniqueid, callee: maskNumber(callee), managerDst });
  return json(200, { jsonrpc: '2.0', id, result: extendedCallbackResult(call.uniqueid) });
}

/** A party as the service stores it: number digits, an agent's SIP login, or a scheme name. */
function party(ctx: SimContext, value: unknown, type: 'default' | 'scheme'): string | null {
  if (typeof value !== 'string' || value.trim() === '') return null;
  const v = value.trim();
  if (type === 'scheme') return v.length <= 100 ? v : null;
  return numberOrAgentLogin(ctx, v);
}
