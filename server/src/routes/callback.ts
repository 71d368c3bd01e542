// POST /api/callback: the one endpoint that spends money. The order is deliberate: cheap checks
// that need no state come first (origin, body, schedule, consent, destination), so hostile input is
// refused before it can touch limits or the service.
import { randomUUID } from 'node:crypto';
import { CallbackRequest, type CallbackAccepted } from '../contract.js';
import type { AppContext } from '../app-context.js';
import { RelayError } from '../errors.js';
import { readJsonBody } from '../http/body.js';
import { json } from '../http/reply.js';
import type { Handler, RequestContext } from '../http/router.js';
import { maskPhone } from '../log.js';
import { checkDestination, maskInternational } from '../protect/phone-policy.js';
import { officeState } from '../schedule/office-hours.js';
import { placeCallback } from '../callback/place-callback.js';
import { toRelayError } from '../calltracking/to-relay-error.js';

export const BODY_LIMIT_BYTES = 4096;
/** The simulator and Ringostat both ring the agent first; the visitor's phone rings ~20–30 s later. */
const ESTIMATE_SECONDS = 30;

export function parseCallbackRequest(body: unknown): CallbackRequest {
  const parsed = CallbackRequest.safeParse(body);
  if (parsed.success) return parsed.data;
  const issue = parsed.error.issues[0]!;
  const field = issue.path.join('.') || undefined;
  const what =
    issue.code === 'unrecognized_keys'
      ? `Unknown field${issue.keys.length > 1 ? 's' : ''}: ${issue.keys.slice(0, 5).join(', ')}.`
      : field
        ? `The field "${field}" is invalid: ${issue.message}.`
        : `The request body must be a JSON object with a "phone" field.`;
  throw new RelayError(field === 'phone' ? 'invalid_phone' : 'invalid_request', what, field ? { field } : {});
}

export function callbackRoute(app: AppContext): Handler {
  return async (rc: RequestContext) => {
    const origin = app.origins.check(rc.req, { required: true })!;
    const request = parseCallbackRequest(await readJsonBody(rc.req, BODY_LIMIT_BYTES));

    const office = officeState(app.config.schedule, app.config.timezone, app.now());
    if (!office.openNow) {
      const nextOpenAt = office.nextOpenAt?.toISOString();
      throw new RelayError('closed', 'The office is closed now, so nobody could answer your call.', nextOpenAt ? { nextOpenAt } : {});
    }
    if (app.config.requireConsent && request.consent !== true) {
      throw new RelayError('consent_required', 'Please agree to be called before we place the call.', { field: 'consent' });
    }
    const destination = checkDestination(request.phone, request.country, app.config);

    const requestId = randomUUID();
    const log = rc.log.child({ requestId, phone: maskPhone(destination.e164) });
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
      const relayError = toRelayError(err);
      log.warn('callback failed', { code: relayError.code, err });
      throw relayError;
    }

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
    return json(202, accepted, { 'cache-control': 'no-store' });
  };
}
