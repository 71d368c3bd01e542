// The routing webhook: the service asks a CRM where to send an inbound call.
// Request: the scheme's method (forced to POST with JSON submission); parameters call_id,
// step_forward (a URL-encoded step id), uuid, google_id plus the scheme's own, as a JSON body, a query
// string (GET/DELETE) or a form body (POST/PUT). Headers include Content-Type, Content-Length,
// Connection: close and a User-Agent. One attempt, no retry; at most timeoutSeconds for the whole reply.
// Reply: 200 whose whole plain body is the destination (HTTP import) or a JSON object whose member
// `destinationField` is (JSON import). A SIP login of an agent or an international number routes the
// call there. Anything else (non-200, timeout, empty body, bad JSON, missing member, not a destination)
// skips to the scheme's next step, which here is the office line's queue: the next free online agent,
// or NO ANSWER when there is none (facts: assume).
import { randomUUID } from 'node:crypto';
import { request as httpRequest, type IncomingMessage } from 'node:http';
import { request as httpsRequest } from 'node:https';
import { DEFAULTS } from './assumptions.ts';
import { newCall } from './call-log.ts';
import type { SimContext } from './context.ts';
import { internationalNumber, maskNumber } from './numbers.ts';
import type { InboundCallResult, RouteReason, RoutingControl, RoutingScheme } from './types.ts';

const MAX_REPLY_BYTES = 16 * 1024;
const USER_AGENT = 'Dialback-Simulator/1.0 (call routing webhook)';

type NormalizedScheme = NonNullable<RoutingControl['scheme']>;

export function normalizeScheme(scheme: RoutingScheme): NormalizedScheme {
  let url: URL;
  try {
    url = new URL(scheme.url);
  } catch {
    throw new Error(`routing scheme: url is not a valid URL`);
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') throw new Error('routing scheme: url must be http(s)');
  if (!['GET', 'POST', 'PUT', 'DELETE'].includes(scheme.method)) throw new Error('routing scheme: method must be GET, POST, PUT or DELETE');
  if (scheme.submission !== 'http' && scheme.submission !== 'json') throw new Error('routing scheme: submission must be http or json');
  if (scheme.import !== 'http' && scheme.import !== 'json') throw new Error('routing scheme: import must be http or json');
  if (scheme.import === 'json' && !scheme.destinationField) throw new Error('routing scheme: JSON import needs destinationField');
  const timeoutSeconds = scheme.timeoutSeconds ?? DEFAULTS.routeTimeoutSeconds;
  if (!(timeoutSeconds > 0 && timeoutSeconds <= 60)) throw new Error('routing scheme: timeoutSeconds must be in (0, 60]');
  return {
    name: scheme.name ?? DEFAULTS.routeSchemeName,
    url: url.toString(),
    // The spec's rule: with JSON data the method is set to POST automatically.
    method: scheme.submission === 'json' ? 'POST' : scheme.method,
    submission: scheme.submission,
    import: scheme.import,
    destinationField: scheme.destinationField,
    timeoutSeconds,
    params: scheme.params,
  };
}

interface WebhookReply {
  status: number;
  body: string;
}

type Outcome = { ok: true; reply: WebhookReply } | { ok: false; reason: 'timeout' | 'network_error' };

export function createRouter(ctx: SimContext, googleId: string): RoutingControl {
  let scheme: NormalizedScheme | null = null;

  async function simulateInboundCall(input: { from: string; to?: string }): Promise<InboundCallResult> {
    const from = internationalNumber(input.from) ?? input.from;
    const to = input.to ? (internationalNumber(input.to) ?? input.to) : ctx.officeLine;
    const call = newCall({ origin: 'inbound', callType: 'in', calldate: ctx.now(), caller: from, dst: to, visitor: from });
    ctx.calls.push(call);

    if (!scheme) return fallback(call, 'no_scheme');
    call.schemeName = scheme.name;

    const webhook = buildWebhook(scheme, { callId: call.uniqueid, caller: from, dst: to, googleId });
    const outcome = await send(webhook, scheme.timeoutSeconds * 1000);
    ctx.log({ msg: 'routing webhook', uniqueid: call.uniqueid, method: webhook.method, outcome: outcome.ok ? outcome.reply.status : outcome.reason });
    if (!outcome.ok) return fallback(call, outcome.reason, webhook);
    const { reply } = outcome;
    if (reply.status !== 200) return fallback(call, 'http_status', webhook, reply.status);

    const picked = pickDestination(scheme, reply);
    if ('reason' in picked) return fallback(call, picked.reason, webhook, reply.status);
    const agent = ctx.agents.byLogin(picked.destination);
    if (agent) {
      ctx.lifecycle.connectInbound(call, { agent: agent.login });
    } else {
      const number = internationalNumber(picked.destination);
      if (!number) return fallback(call, 'invalid_destination', webhook, reply.status);
      ctx.lifecycle.connectInbound(call, { number });
    }
    return { destination: call.connectedWith, reason: 'routed', status: reply.status, call, webhook };
  }

  /** The scheme's next step: the office line's queue. */
  function fallback(call: InboundCallResult['call'], reason: RouteReason, webhook?: InboundCallResult['webhook'], status?: number): InboundCallResult {
    ctx.log({ msg: 'routing skipped to next step', uniqueid: call.uniqueid, reason, caller: maskNumber(call.caller) });
    ctx.lifecycle.connectInbound(call, {});
    const result: InboundCallResult = { destination: null, reason, call };
    if (status !== undefined) result.status = status;
    if (webhook) result.webhook = webhook;
    return result;
  }

  return {
    configure(next) {
      scheme = normalizeScheme(next);
    },
    clear() {
      scheme = null;
    },
    get scheme() {
      return scheme;
    },
    simulateInboundCall,
  };
}

interface BuiltWebhook {
  method: string;
  url: string;
  headers: Record<string, string>;
  body: string;
}

function buildWebhook(scheme: NormalizedScheme, call: { callId: string; caller: string; dst: string; googleId: string }): BuiltWebhook {
  const fill = (v: string) => v.replaceAll('{caller}', call.caller).replaceAll('{call_id}', call.callId).replaceAll('{dst}', call.dst);
  const values: Record<string, string> = {
    call_id: call.callId,
    step_forward: encodeURIComponent(`${scheme.name}/step-1`),
    uuid: randomUUID(),
    google_id: call.googleId,
  };
  for (const [k, v] of Object.entries(scheme.params ?? {})) values[k] = fill(v);

  const url = new URL(scheme.url);
  let body = '';
  let contentType = 'application/x-www-form-urlencoded';
  if (scheme.submission === 'json') {
    body = JSON.stringify(values);
    contentType = 'application/json';
  } else if (scheme.method === 'GET' || scheme.method === 'DELETE') {
    for (const [k, v] of Object.entries(values)) url.searchParams.append(k, v);
  } else {
    body = new URLSearchParams(values).toString();
  }
  return {
    method: scheme.method,
    url: url.toString(),
    headers: {
      'Content-Type': contentType,
      'Content-Length': String(Buffer.byteLength(body)),
      Connection: 'close',
      'User-Agent': USER_AGENT,
    },
    body,
  };
}

/** One attempt with a deadline on the whole exchange (connect, headers and body). */
function send(webhook: BuiltWebhook, timeoutMs: number): Promise<Outcome> {
  return new Promise((resolve) => {
    let settled = false;
    const finish = (o: Outcome) => {
      if (settled) return;
      settled = true;
      clearTimeout(deadline);
      resolve(o);
    };
    const url = new URL(webhook.url);
    const request = (url.protocol === 'https:' ? httpsRequest : httpRequest)(url, { method: webhook.method, headers: webhook.headers, agent: false });
    const deadline = setTimeout(() => {
      finish({ ok: false, reason: 'timeout' });
      request.destroy();
    }, timeoutMs);
    request.on('error', () => finish({ ok: false, reason: 'network_error' }));
    request.on('response', (res: IncomingMessage) => {
      const chunks: Buffer[] = [];
      let size = 0;
      res.on('data', (c: Buffer) => {
        size += c.length;
        if (size <= MAX_REPLY_BYTES) chunks.push(c);
      });
      res.on('end', () => finish({ ok: true, reply: { status: res.statusCode ?? 0, body: Buffer.concat(chunks).toString('utf8') } }));
      res.on('error', () => finish({ ok: false, reason: 'network_error' }));
    });
    request.end(webhook.body);
  });
}

function pickDestination(scheme: NormalizedScheme, reply: WebhookReply): { destination: string } | { reason: RouteReason } {
  const body = reply.body.trim();
  if (body === '') return { reason: 'empty_body' };
  if (scheme.import === 'http') return { destination: body };
  let value: unknown;
  try {
    value = JSON.parse(body);
  } catch {
    return { reason: 'bad_json' };
  }
  if (!value || typeof value !== 'object' || Array.isArray(value)) return { reason: 'bad_json' };
  const member = (value as Record<string, unknown>)[scheme.destinationField ?? ''];
  if (member === undefined || member === null) return { reason: 'missing_member' };
  if (typeof member !== 'string' || member.trim() === '') return { reason: 'invalid_destination' };
  return { destination: member.trim() };
}
