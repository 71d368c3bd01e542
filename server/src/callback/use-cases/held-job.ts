// A callback as the job store keeps it once the request is answered: booked for a time, held while
// the service is unreachable, or followed after the service took it at once. Everything placing
// (or re-dialling) the call needs once the HTTP request is gone. Shared by booking (book-call.ts),
// holding and following (place-now.ts), so all keep exactly the same request. Only a held call
// (booked or queued) gets a cancel token: a call placed at once has nothing left to cancel.
import { randomBytes } from 'node:crypto';
import type { CallbackDeps } from '../deps.ts';
import { maskInternational, type Destination } from '../../phone/phone-policy.ts';
import { NO_PROGRESS, type NewCallbackJob } from '../job-store.ts';
import { INITIAL_STAGES, type RequestedAs } from '../stages.ts';
import { numberHmac } from '../../phone/number-hash.ts';
import { USER_AGENT_MAX } from '../steps/callback-params.ts';
import type { CallbackInput } from './request-callback.ts';

export interface HeldJob {
  job: NewCallbackJob;
  /** The cancel token given to the visitor (only its hash is stored); null for a call placed now. */
  cancelToken: string | null;
}

export function heldJob(
  app: Pick<CallbackDeps, 'now' | 'config' | 'departments'>,
  input: CallbackInput,
  destination: Destination,
  callbackId: string,
  requestedAs: RequestedAs,
  dueAt: number,
): HeldJob {
  const cancelToken = requestedAs === 'now' ? null : randomBytes(18).toString('base64url');
  const { request } = input;
  const now = app.now().getTime();
  return {
    cancelToken,
    job: {
      callbackId,
      requestedAs,
      stage: INITIAL_STAGES[requestedAs],
      dueAt,
      numberHash: numberHmac(app.config.hash.secret, destination.e164),
      maskedNumber: maskInternational(destination.international),
      cancelToken,
      request: {
        e164: destination.e164,
        attribution: request.attribution ?? {},
        ...(request.trackingConsent && { trackingConsent: request.trackingConsent }),
        clientIp: input.clientIp,
        userAgent: input.userAgent?.slice(0, USER_AGENT_MAX) ?? null,
        origin: input.origin,
        pageUrl: request.pageUrl ?? null,
        locale: request.locale ?? null,
        // Only with DEPARTMENTS_FILE: without it, nothing a job carries or tells names a department.
        ...(app.departments.settings.fromFile && { department: app.departments.requested(request.department).id }),
      },
      progress: {
        ...NO_PROGRESS,
        ...(requestedAs === 'scheduled' && { scheduledFor: dueAt }),
        ...(requestedAs === 'queued' && { queuedAt: now }),
      },
    },
  };
}
