// Delivers the outbox's webhook channel to LEAD_WEBHOOK_URL (the loop: outbox-delivery.ts): each
// attempt is a signed POST (signing.ts) of the event's stored body with its stable id; a 2xx answer
// delivers it. Anything else (another status, a redirect, a network error, no answer within the
// timeout) is a failed attempt, retried with backoff for 24 h.
import { createOutboxDelivery, type DeliveryTiming, type WebhookDelivery } from './outbox-delivery.ts';
import { parseWebhookSecret, signWebhook } from './signing.ts';
import type { WebhookOutbox } from './outbox.ts';
import type { WebhookSettings } from '../config/webhooks.ts';

export { DELIVERY_DEFAULTS, type DeliveryClock, type DeliveryReport, type WebhookDelivery } from './outbox-delivery.ts';

export interface WebhookDeliveryOptions extends DeliveryTiming {
  outbox: WebhookOutbox;
  settings: WebhookSettings;
  /** This relay's id: who holds the lease of an attempt. */
  owner: string;
  fetch?: typeof fetch;
}

export function createWebhookDelivery(options: WebhookDeliveryOptions): WebhookDelivery {
  const fetchFn = options.fetch ?? fetch;
  const key = parseWebhookSecret(options.settings.secret);
  const now = options.clock?.now ?? Date.now;
  return createOutboxDelivery({
    ...options,
    channel: 'webhook',
    async send(entry, signal) {
      const headers = signWebhook(key, entry.eventId, Math.floor(now() / 1000), entry.body);
      const res = await fetchFn(options.settings.url, {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'user-agent': 'Dialback-Webhook/1', ...headers },
        body: entry.body,
        redirect: 'manual',
        signal,
      });
      await res.body?.cancel().catch(() => {});
      return res.status >= 200 && res.status < 300 ? { ok: true, status: res.status } : { ok: false, status: res.status, error: `HTTP ${res.status}` };
    },
  });
}
