// A callback held for later (booked for a time, or held while the service is unreachable) as the
// job store keeps it: everything placing the call needs once the HTTP request is gone, and the
// lead event that tells the owner about it. Shared by booking (book-call.ts) and holding
// (place-now.ts), so both keep exactly the same request.
import { randomBytes } from 'node:crypto';
import type { AppContext } from '../app-context.ts';
import { maskInternational, type Destination } from '../phone/phone-policy.ts';
import type { CallbackJobKind, NewCallbackJob } from '../lifecycle/job-store.ts';
import type { LeadEventInput } from '../webhooks/events.ts';
import { numberHmac } from '../consent/consent-log.ts';
import type { CallbackInput } from './request-callback.ts';

export interface HeldJob {
  job: NewCallbackJob;
  /** The cancel token given to the visitor (only its hash is stored). */
  cancelToken: string;
  /** What the lead events of this callback say. */
  lead: Omit<LeadEventInput, 'type' | 'occurredAt'>;
}

export function heldJob(app: AppContext, input: CallbackInput, destination: Destination, callbackId: string, kind: CallbackJobKind, dueAt: number): HeldJob {
  const cancelToken = randomBytes(18).toString('base64url');
  const numberHash = numberHmac(app.config.hashSecret, destination.e164);
  const maskedNumber = maskInternational(destination.international);
  const { request } = input;
  const attribution = request.attribution ?? {};
  const now = app.now().getTime();
  return {
    cancelToken,
    job: {
      callbackId,
      kind,
      dueAt,
      numberHash,
      maskedNumber,
      cancelToken,
      request: {
        e164: destination.e164,
        attribution,
        clientIp: input.clientIp,
        userAgent: input.userAgent?.slice(0, 512) ?? null,
        origin: input.origin,
        pageUrl: request.pageUrl ?? null,
        locale: request.locale ?? null,
      },
    },
    lead: {
      callbackId,
      e164: destination.e164,
      maskedNumber,
      numberHash,
      attribution,
      pageUrl: request.pageUrl ?? null,
      origin: input.origin,
      locale: request.locale ?? null,
      requestedAt: now,
      scheduledFor: kind === 'scheduled' ? dueAt : null,
    },
  };
}
