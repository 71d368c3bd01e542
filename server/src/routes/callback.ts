// POST /api/callback: the one endpoint that spends money. This file maps HTTP to the callback
// use-case (callback/use-cases/request-callback.ts) and back: the Idempotency-Key header, the early refusal
// answered without reading the body, the body (JSON, at most 20 KB, the contract's schema), and the
// answer with the request's log fields. The origin was checked by the relay (origin: 'required').
import type { IncomingMessage } from 'node:http';
import { createCallbacks } from '../callback/use-cases/request-callback.ts';
import { createAnswers, type CallbackOutcome } from '../callback/use-cases/outcome.ts';
import { CallbackRequest } from '../contract/contract.ts';
import { RelayError } from '../contract/errors.ts';
import { readJsonBody } from '../http/body.ts';
import type { Reply } from '../http/reply.ts';
import type { Handler } from '../http/router.ts';
import { readIdempotencyKey } from '../idempotency/request-key.ts';
import type { AppContext } from '../app/app-context.ts';
import type { RouteModule } from './index.ts';
import { type SpanAttributes, tracing } from '../tracing/tracing.ts';
import { USER_AGENT_MAX } from '../callback/steps/callback-params.ts';
import { oneLine } from '../visitor-text/one-line.ts';
import { pageOfOrigin } from '../visitor-text/page-url.ts';

/**
 * Every body the schema accepts fits, the widget's longest included: a consent sentence of 2,000
 * characters of three UTF-8 bytes each, its privacy and page URLs, a CAPTCHA token and the six
 * attribution values at their longest come to about 18 KB. Anything larger is no request of ours.
 */
const BODY_LIMIT_BYTES = 20 * 1024;

/**
 * A field of the wrong type in words a developer reads at once ("must be a boolean", "is
 * missing"), not the validator's ("Invalid input: expected boolean, received string").
 */
function wrongType(body: unknown, path: readonly PropertyKey[], field: string, expected: string): string {
  let value = body;
  for (const key of path) value = value !== null && typeof value === 'object' ? (value as Record<PropertyKey, unknown>)[key] : undefined;
  if (value === undefined) return `The field "${field}" is missing${field === 'phone' ? ': send the number to call' : ''}.`;
  return `The field "${field}" must be ${/^[aeiou]/.test(expected) ? 'an' : 'a'} ${expected}.`;
}

function parseCallbackRequest(body: unknown): CallbackRequest {
  const parsed = CallbackRequest.safeParse(body);
  if (parsed.success) return parsed.data;
  const issue = parsed.error.issues[0]!;
  const field = issue.path.join('.').slice(0, 80) || undefined;
  const what =
    issue.code === 'unrecognized_keys'
      ? `Unknown field${issue.keys.length > 1 ? 's' : ''}: ${issue.keys
          .slice(0, 5)
          .map((k) => k.slice(0, 40))
          .join(', ')}.`
      : field && issue.code === 'invalid_type'
        ? wrongType(body, issue.path, field, issue.expected)
        : field
          ? `The field "${field}" is invalid: ${issue.message}.`
          : `The request body must be a JSON object with a "phone" field.`;
  throw new RelayError(field === 'phone' ? 'invalid_phone' : 'invalid_request', what, field ? { field } : {});
}

/**
 * A reply sent without reading the request's body. Node reads and discards an unread body once
 * the answer is sent, keeping the connection for the next request: right for a body that
 * announced a length within our limit. A longer, unannounced or chunked one is not worth
 * reading: the connection is closed instead.
 */
function unreadBodyReply(reply: Reply, req: IncomingMessage): Reply {
  const length = Number(req.headers['content-length']);
  const small = req.headers['transfer-encoding'] === undefined && Number.isInteger(length) && length >= 0 && length <= BODY_LIMIT_BYTES;
  return small ? reply : { ...reply, headers: { ...reply.headers, connection: 'close' } };
}

function requestCallback(app: AppContext): Handler {
  const callbacks = createCallbacks(app);
  const answerOf = createAnswers();
  return async (rc) => {
    const origin = rc.origin!;
    const idempotencyKey = readIdempotencyKey(rc.req.headers['idempotency-key']);
    const blocked = await callbacks.earlyRefusal(rc.clientIp, origin, idempotencyKey);
    if (blocked) {
      // A refusal (4xx): under a flood its line shares its kind's summary (log/repeat-lines.ts).
      rc.logFields = { refused: blocked.reason, retryAfter: blocked.retryAfter };
      return unreadBodyReply(answerOf({ kind: 'refused', refusal: blocked, phone: null }), rc.req);
    }
    const parsed = parseCallbackRequest(await readJsonBody(rc.req, BODY_LIMIT_BYTES));
    // The page is kept only as an http(s) page of this request's own Origin; any other is dropped
    // and the call goes on (a lead is never lost for its page), the request's log line saying why.
    const page = pageOfOrigin(parsed.pageUrl, origin);
    if (page.dropped) rc.logFields = { pageUrlDropped: page.dropped };
    const { pageUrl: _sent, ...rest } = parsed;
    const request: CallbackRequest = page.url === null ? rest : { ...rest, pageUrl: page.url };
    const userAgent = rc.req.headers['user-agent'];
    const outcome = await callbacks.request({
      request,
      origin,
      idempotencyKey,
      clientIp: rc.clientIp,
      // A header, yet visitor text like the body's values (obs-text bytes arrive as C1 controls).
      userAgent: userAgent === undefined ? undefined : oneLine(userAgent, USER_AGENT_MAX) || undefined,
      // Made when first used: a refused request (most of a flood) never logs on its own.
      get log() {
        return rc.log;
      },
    });
    if (tracing.enabled) tracing.annotate(outcomeAttributes(outcome));
    if (outcome.kind === 'refused') {
      // Said on the request's own line (a flood writes one line per refusal, not two). It names the
      // number under attack: under a flood, each number's first line is written, and a summary line
      // gives the count of the rest (log/repeat-lines.ts), as a proxy pool rotating addresses
      // would otherwise write a line per request.
      rc.logFields = { ...rc.logFields, refused: outcome.refusal.reason, retryAfter: outcome.refusal.retryAfter, phone: outcome.phone };
      if (outcome.phone !== null) rc.repeatPer = { phone: outcome.phone };
    }
    return answerOf(outcome);
  };
}

export const callbackRoutes: RouteModule = (app) => [{ path: '/api/callback', origin: 'required', methods: { POST: requestCallback(app) } }];

/** What a request's span says of its callback: the outcome, the callback id, the limits' decision. Never the number. */
function outcomeAttributes(outcome: CallbackOutcome): SpanAttributes {
  switch (outcome.kind) {
    case 'accepted':
      return { 'dialback.outcome': outcome.kind, 'dialback.callback_id': outcome.accepted.requestId, 'dialback.limits': 'admitted' };
    case 'scheduled':
    case 'queued':
      return { 'dialback.outcome': outcome.kind, 'dialback.callback_id': outcome.callbackId, 'dialback.limits': 'admitted' };
    case 'refused':
      return { 'dialback.outcome': outcome.kind, 'dialback.limits': outcome.refusal.reason };
    default:
      return { 'dialback.outcome': outcome.kind };
  }
}
