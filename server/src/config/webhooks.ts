// The owner's lead webhook (LEAD_WEBHOOK_URL, LEAD_WEBHOOK_SECRET): where to send (https, or http to
// this machine only) and the Standard Webhooks signing secret (`whsec_` + base64 of 24 to 64 random
// bytes). Both or neither.
import { type EnvReader, requiredError } from './env.ts';

export interface WebhookSettings {
  url: string;
  /** The secret as given (whsec_…): signing.ts turns it into the HMAC key. */
  secret: string;
}

/** null when no lead webhook is configured. */
export function readLeadWebhook(env: EnvReader): WebhookSettings | null {
  // The URL may carry a token of the CRM's, so neither value is echoed.
  const url = env.url('LEAD_WEBHOOK_URL', 'outbound', { secret: true });
  const secret = env.text('LEAD_WEBHOOK_SECRET', {
    check: isWebhookSecret,
    expected: 'whsec_ followed by the base64 of 24 to 64 random bytes (e.g. whsec_$(openssl rand -base64 32))',
    secret: true,
  });
  if (!url && !secret) return null;
  if (!url) throw requiredError('LEAD_WEBHOOK_URL', 'when LEAD_WEBHOOK_SECRET is set (the https address of your CRM endpoint)');
  if (!secret) throw requiredError('LEAD_WEBHOOK_SECRET', 'when LEAD_WEBHOOK_URL is set (whsec_ followed by base64 of 24 to 64 random bytes)');
  return { url, secret };
}

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

function isWebhookSecret(secret: string): boolean {
  try {
    parseWebhookSecret(secret);
    return true;
  } catch {
    return false;
  }
}
