// POST /api/callback: the one endpoint that spends money. The order is deliberate:
//   0. origin and Idempotency-Key syntax, then one read-only question to the limiter: is this
//      client (address, or IPv6 /64) already over its rate or daily limit, or its refusals
//      (LIMIT_CLIENT_REFUSALS)? Then it is refused
//      whatever its body says, so a flood is answered 429 without reading, parsing or checking a
//      body. It counts nothing, so it is no new limit, only an earlier answer. A repeat of a known
//      Idempotency-Key skips it: the first answer it is owed comes from step 2, as before;
//   1. checks that need no state (body, schedule, consent, destination), so hostile input is
//      refused before it touches anything;
//   2. idempotency, before anything that counts or verifies: a repeat of a request gets the first
//      answer, even though its CAPTCHA token is spent and its number is now cooling down;
//   3. CAPTCHA (when enabled), then the limits, then the service.
// Only a request that reached the service is remembered for its Idempotency-Key; one that provably
// never did (connection never opened) gives back what it counted against the limits.
import { randomUUID } from 'node:crypto';
import { CallbackRequest, type CallbackAccepted } from '../contract.ts';
import type { AppContext } from '../app-context.ts';
import { RelayError } from '../errors.ts';
import { readJsonBody } from '../http/body.ts';
import { json, relayErrorReply, type Reply } from '../http/reply.ts';
import type { Handler, RequestContext } from '../http/router.ts';
import type { IncomingMessage } from 'node:http';
import { LimitRefusalError } from '../protect/limits.ts';
import { createRefusalReplies } from '../protect/refusal-replies.ts';
import { maskPhone } from '../log.ts';
import { maskInternational, type Destination } from '../protect/phone-policy.ts';
import { createDestinationCache } from '../protect/destination-cache.ts';
import { readIdempotencyKey, requestFingerprint, type IdempotencyTicket } from '../protect/idempotency.ts';
import { placeCallback } from '../callback/place-callback.ts';
import { refusesOurCredentials, toRelayError } from '../calltracking/to-relay-error.ts';
import { CallTrackingError } from '../calltracking/errors.ts';

const BODY_LIMIT_BYTES = 4096;
/** The simulator and Ringostat both ring the agent first; the visitor's phone rings ~20–30 s later. */
const ESTIMATE_SECONDS = 30;

function parseCallbackRequest(body: unknown): CallbackRequest {
  const parsed = CallbackRequest.safeParse(body);
  if (parsed.success) return parsed.data;
  const issue = parsed.error.issues[0]!;
  const field = issue.path.join('.') || undefined;
  const what =
    issue.code === 'unrecognized_keys'
      ? `Unknown field${issue.keys.length > 1 ? 's' : ''}: ${issue.keys.slice(0, 5).map((k) => k.slice(0, 40)).join(', ')}.`
      : field
        ? `The field "${field.slice(0, 80)}" is invalid: ${issue.message}.`
        : `The request body must be a JSON object with a "phone" field.`;
  throw new RelayError(field === 'phone' ? 'invalid_phone' : 'invalid_request', what, field ? { field: field.slice(0, 80) } : {});
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

/** Public outcome of a request that reached the service, for metrics. */
function outcomeOf(error: RelayError | null): string {
  if (!error) return 'accepted';
  if (error.code === 'upstream_rejected') return 'rejected';
  if (error.code === 'upstream_unavailable') return 'unavailable';
  if (error.code === 'upstream_timeout') return 'timeout';
  return 'unknown';
}

export function callbackRoute(app: AppContext): Handler {
  const destinationOf = createDestinationCache(app.config);
  const refusalReply = createRefusalReplies();
  return async (rc: RequestContext) => {
    const origin = app.origins.check(rc.req, { required: true })!;
    const idempotencyKey = readIdempotencyKey(rc.req.headers['idempotency-key']);
    const blocked = await app.limiter.blockedClient(rc.clientIp);
    // The key is looked up only for a blocked client: most requests carry one, few are blocked.
    if (blocked && (idempotencyKey === undefined || !app.idempotency.has(origin, idempotencyKey))) {
      app.metrics.limiterRefusals.inc({ reason: blocked.reason });
      // A refusal (4xx): under a flood its line shares its kind's summary (log/repeat-lines.ts).
      rc.logFields = { refused: blocked.reason, retryAfter: blocked.retryAfter };
      return unreadBodyReply(refusalReply(blocked), rc.req);
    }
    const request = parseCallbackRequest(await readJsonBody(rc.req, BODY_LIMIT_BYTES));

    const office = app.office.stateAt(app.now());
    if (!office.openNow) {
      const nextOpenAt = office.nextOpenAt?.toISOString();
      throw new RelayError('closed', 'The office is closed now, so nobody could answer your call.', nextOpenAt ? { nextOpenAt } : {});
    }
    if (app.config.requireConsent && request.consent !== true) {
      throw new RelayError('consent_required', 'Please agree to be called before we place the call.', { field: 'consent' });
    }
    const destination = destinationOf(request.phone, request.country);

    let ticket: IdempotencyTicket | null = null;
    if (idempotencyKey !== undefined) {
      // The CAPTCHA token is a one-time credential, not part of what is asked for: a repeat that
      // carries a fresh token is still the same request.
      const { turnstileToken: _token, ...meaning } = request;
      const begun = app.idempotency.begin(origin, idempotencyKey, requestFingerprint(meaning));
      if (begun.kind === 'replay') return begun.reply;
      ticket = begun.ticket;
    }

    try {
      return await afterIdempotency(app, rc, request, destination, origin, ticket, refusalReply);
    } catch (err) {
      // Whatever broke, the key must not stay "in progress" until it expires.
      ticket?.abandon();
      throw err;
    }
  };
}

async function afterIdempotency(
  app: AppContext,
  rc: RequestContext,
  request: CallbackRequest,
  destination: Destination,
  origin: string,
  ticket: IdempotencyTicket | null,
  refusalReply: (refusal: LimitRefusalError['refusal']) => Reply,
): Promise<Reply> {
  const phone = maskPhone(destination.e164);
  let admission;
  try {
    if (app.captcha) await app.captcha.verify(request.turnstileToken, { clientIp: rc.clientIp, origin, log: rc.log.child({ phone }) });
    admission = await app.limiter.admit({ digits: destination.digits, clientIp: rc.clientIp, site: origin });
  } catch (err) {
    ticket?.abandon();
    if (!(err instanceof RelayError)) throw err;
    // The same answer the relay makes of a thrown RelayError, made here: a flood's refusals need
    // not unwind through two more async frames.
    if (!(err instanceof LimitRefusalError)) return relayErrorReply(err);
    // Said on the request's own line: a flood writes one line per refusal, not two.
    rc.logFields = { refused: err.refusal.reason, retryAfter: err.refusal.retryAfter, phone };
    // Each such line names the number under attack: kept, however many (strikes bound them).
    rc.repeatable = false;
    return refusalReply(err.refusal);
  }
  // Only an admitted request becomes a callback with an id of its own: a refused one (most of a
  // flood) is not worth the id and the child logger.
  const requestId = randomUUID();
  const log = rc.log.child({ callbackId: requestId, phone });

  let failure: RelayError | null = null;
  try {
    const attribution = request.attribution ?? {};
    const userAgent = rc.req.headers['user-agent'];
    try {
      const { attempts } = await placeCallback(
        app.client,
        {
          caller: app.config.callback.caller,
          caller_type: app.config.callback.callerType,
          callee: destination.digits,
          callee_type: 'default',
          direction: app.config.callback.direction,
          manager_dst: app.config.callback.managerDst,
          projectId: app.config.calltracking.projectId,
          clientIp: rc.clientIp,
          ...attribution,
          ...(userAgent && { clientUserAgent: userAgent.slice(0, 512) }),
        },
        log,
      );
      log.info('callback accepted', { attempts, origin, utmSource: attribution.utmSource });
      app.accepted.add({ requestId, digits: destination.digits, acceptedAt: app.now(), origin });
    } catch (err) {
      failure = toRelayError(err);
      // A refusal of our own credentials needs the operator, not the visitor: log it as an error.
      const ours = refusesOurCredentials(err);
      log[ours ? 'error' : 'warn']('callback failed', { code: failure.code, err, ...(ours && { hint: 'check CALLTRACKING_AUTH_KEY and CALLTRACKING_PROJECT_ID' }) });
      if (err instanceof CallTrackingError && err.neverSent) {
        // Nothing reached the service, so nothing happened: the visitor may simply try again.
        // (The handler's catch frees the Idempotency-Key: the visitor may retry with it.)
        await admission.refund();
        app.metrics.callbacks.inc({ outcome: outcomeOf(failure) });
        throw failure;
      }
    }
  } finally {
    await admission.release();
  }
  app.metrics.callbacks.inc({ outcome: outcomeOf(failure) });

  let reply: Reply;
  if (failure) {
    reply = relayErrorReply(failure);
  } else {
    if (request.consent) {
      await app.consent
        .record({ at: app.now(), requestId, origin, text: request.consentText, e164: destination.e164 })
        .catch((err) => log.error('consent record not written', { err }));
    }
    const accepted: CallbackAccepted = {
      status: 'accepted',
      requestId,
      phoneMasked: maskInternational(destination.international),
      estimateSeconds: ESTIMATE_SECONDS,
    };
    reply = json(202, accepted, { 'cache-control': 'no-store' });
  }
  // A repeat of this request must not ring anyone again, whatever the outcome was.
  ticket?.complete(reply);
  return reply;
}
