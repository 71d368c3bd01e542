// Telling the owner's CRM about a lead (the signed lead webhook, webhooks/): every use-case step
// that changes what the owner should know — a call booked, held, placed, missed, failed or
// cancelled — announces it here. The event goes to the durable outbox and the delivery worker is
// nudged; it is delivered at least once, with a stable id, whatever happens to this relay.
// Without LEAD_WEBHOOK_URL nothing is stored: no full number is kept for a receiver that is not there.
import type { Logger } from '../log/index.ts';
import type { WebhookDelivery } from './delivery.ts';
import { buildLeadEvent, type LeadEventInput } from './events.ts';
import type { WebhookOutbox } from './outbox.ts';

export interface LeadAnnouncer {
  /** Enqueues the event (occurredAt: now, unless given); never throws: a lost event is logged, not the visitor's problem. */
  announce(input: Omit<LeadEventInput, 'occurredAt'> & { occurredAt?: number }): Promise<void>;
}

export interface LeadAnnouncerDeps {
  outbox: WebhookOutbox;
  /** null: no lead webhook configured. */
  delivery: WebhookDelivery | null;
  now: () => number;
  log: Logger;
}

export function createLeadAnnouncer(deps: LeadAnnouncerDeps): LeadAnnouncer {
  const { delivery } = deps;
  if (delivery === null) return { announce: async () => {} };
  return {
    async announce(input) {
      const now = deps.now();
      const event = buildLeadEvent({ ...input, occurredAt: input.occurredAt ?? now });
      try {
        if (await deps.outbox.enqueue(event, now)) delivery.notify();
      } catch (err) {
        deps.log.error('lead event not stored', { err, type: event.type, callbackId: input.callbackId, eventId: event.id });
      }
    },
  };
}
