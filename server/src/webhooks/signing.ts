// Standard Webhooks signatures (standardwebhooks.com): `webhook-signature` is `v1,` + base64 of
// HMAC-SHA256 over `${webhook-id}.${webhook-timestamp}.${body}`, keyed with the secret's bytes
// (the base64 after `whsec_`). Written with node:crypto rather than the standardwebhooks package:
// five lines, no dependency in the relay's runtime path, and our own validation of the secret with
// an error that names the setting; the tests verify every delivery with the package's Webhook.verify.
import { createHmac } from 'node:crypto';
import { parseWebhookSecret } from '../config/webhooks.ts';

export { parseWebhookSecret };

export interface WebhookHeaders {
  'webhook-id': string;
  'webhook-timestamp': string;
  'webhook-signature': string;
}

/** The three headers of one delivery attempt (the timestamp is the attempt's, in whole seconds). */
export function signWebhook(key: Buffer, id: string, timestampSec: number, body: string): WebhookHeaders {
  const signature = createHmac('sha256', key).update(`${id}.${timestampSec}.${body}`).digest('base64');
  return { 'webhook-id': id, 'webhook-timestamp': String(timestampSec), 'webhook-signature': `v1,${signature}` };
}
