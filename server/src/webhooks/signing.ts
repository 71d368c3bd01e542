// Standard Webhooks signatures (standardwebhooks.com): `webhook-signature` is `v1,` + base64 of
// HMAC-SHA256 over `${webhook-id}.${webhook-timestamp}.${body}`, keyed with the secret's bytes
// (the base64 after `whsec_`). Written with node:crypto rather than the standardwebhooks package:
// five lines, no dependency in the relay's runtime path, and our own validation of the secret with
// an error that names the setting; the tests verify every delivery with the package's Webhook.verify.
import { createHmac } from 'node:crypto';

const PREFIX = 'whsec_';
const BASE64 = /^[A-Za-z0-9+/]+={0,2}$/;

/** The HMAC key of a `whsec_…` secret; throws when it is not one. */
export function parseWebhookSecret(secret: string): Buffer {
  if (!secret.startsWith(PREFIX)) throw new Error('expected a secret starting with whsec_');
  const encoded = secret.slice(PREFIX.length);
  if (!BASE64.test(encoded) || encoded.length % 4 !== 0) throw new Error('expected base64 after whsec_');
  const key = Buffer.from(encoded, 'base64');
  if (key.length < 24 || key.length > 64) throw new Error(`expected 24 to 64 bytes after whsec_, got ${key.length}`);
  return key;
}

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
