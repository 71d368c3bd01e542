// The lead webhook's events: what the owner's CRM learns about each callback (with the visitor's
// tracking consent that explains its attribution), in the Standard Webhooks payload shape ({type,
// timestamp, data}), visitor values cleaned whatever an older relay stored. An event's id is stable (a
// hash of the callback, the type and the occurrence), so an event built twice after a crash is kept
// once by the outbox and seen once by the receiver. Details: webhooks/README.md.
import { createHash } from 'node:crypto';
import type { Attribution, TrackingConsent } from '../contract/contract.ts';
import { storedConsent } from '../tracking-consent/snapshot.ts';
import { oneLine, oneLineEach } from '../visitor-text/one-line.ts';
import { pageOfOrigin } from '../visitor-text/page-url.ts';

export const leadEventTypes = ['callback.scheduled', 'callback.queued', 'callback.placed', 'callback.missed', 'callback.failed', 'callback.cancelled'] as const;
export type LeadEventType = (typeof leadEventTypes)[number];

export interface LeadEventInput {
  type: LeadEventType;
  callbackId: string;
  /** 0 for the first event of this type for this callback, 1 for the next… */
  occurrence?: number;
  /** When it happened, ms since the epoch. */
  occurredAt: number;
  e164: string;
  maskedNumber: string;
  /** Keyed hash of the number: kept after the full number is purged. */
  numberHash: string;
  attribution: Attribution;
  /** The visitor's consent to analytics and ads as the widget told it; absent from a widget before it. */
  trackingConsent?: TrackingConsent | undefined;
  pageUrl: string | null;
  origin: string;
  locale: string | null;
  /** When the visitor asked. */
  requestedAt: number;
  /** The booked time of a scheduled call. */
  scheduledFor?: number | null;
  /** failed: why (an error code such as upstream_rejected); missed: 'no_answer'. */
  reason?: string | null;
  /** The department the call is from (DEPARTMENTS_FILE); absent without the file. */
  department?: string;
}

export interface LeadEvent {
  id: string;
  type: LeadEventType;
  callbackId: string;
  numberHash: string;
  maskedNumber: string;
  /** The exact bytes delivered and signed, the same on every attempt. */
  body: string;
}

export function leadEventId(callbackId: string, type: LeadEventType, occurrence = 0): string {
  return `msg_${createHash('sha256').update(`${callbackId}\0${type}\0${occurrence}`).digest('base64url').slice(0, 32)}`;
}

const iso = (ms: number) => new Date(ms).toISOString();

export function buildLeadEvent(input: LeadEventInput): LeadEvent {
  const body = JSON.stringify({
    type: input.type,
    timestamp: iso(input.occurredAt),
    data: {
      callbackId: input.callbackId,
      phone: input.e164,
      phoneMasked: input.maskedNumber,
      attribution: oneLineEach(input.attribution, 200),
      consent: storedConsent(input.trackingConsent),
      pageUrl: pageOfOrigin(input.pageUrl, input.origin).url,
      origin: input.origin,
      locale: input.locale === null ? null : oneLine(input.locale, 35) || null,
      requestedAt: iso(input.requestedAt),
      scheduledFor: input.scheduledFor == null ? null : iso(input.scheduledFor),
      occurredAt: iso(input.occurredAt),
      reason: input.reason ?? null,
      ...(input.department && { department: oneLine(input.department, 60) }),
    },
  });
  return {
    id: leadEventId(input.callbackId, input.type, input.occurrence),
    type: input.type,
    callbackId: input.callbackId,
    numberHash: input.numberHash,
    maskedNumber: input.maskedNumber,
    body,
  };
}
