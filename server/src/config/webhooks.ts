// The lead webhook's settings (design.md §5): where to send (https, or http to this machine only)
// and the Standard Webhooks signing secret (`whsec_` + base64 of 24 to 64 random bytes). Both or
// neither: config.ts spreads `webhookEnv` into its schema table and calls `webhookSettings`, whose
// errors start with the variable's name.
import { z } from 'zod';

const LOOPBACK = /^(localhost|127(\.\d{1,3}){3}|\[::1\])$/i;

/** https, or http to a loopback host (a CRM bridge on the same machine, tests). */
export function isAllowedWebhookUrl(value: string): boolean {
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    return false;
  }
  if (url.username || url.password) return false;
  return url.protocol === 'https:' || (url.protocol === 'http:' && LOOPBACK.test(url.hostname));
}

export const webhookEnv = {
  LEAD_WEBHOOK_URL: z.string().refine(isAllowedWebhookUrl, 'expected an https URL (http only for localhost or 127.0.0.1), without credentials').optional(),
  LEAD_WEBHOOK_SECRET: z
    .string()
    .refine((s) => {
      try {
        parseWebhookSecret(s);
        return true;
      } catch {
        return false;
      }
    }, 'expected whsec_ followed by the base64 of 24 to 64 random bytes (e.g. whsec_$(openssl rand -base64 32))')
    .optional(),
} satisfies Record<string, z.ZodType>;

type WebhookEnv = { [K in keyof typeof webhookEnv]?: z.output<(typeof webhookEnv)[K]> };

export interface WebhookSettings {
  url: string;
  /** The secret as given (whsec_…): signing.ts turns it into the HMAC key. */
  secret: string;
}

/** null when no lead webhook is configured. Throws an Error whose message starts with the variable's name. */
export function webhookSettings(e: WebhookEnv): WebhookSettings | null {
  if (!e.LEAD_WEBHOOK_URL && !e.LEAD_WEBHOOK_SECRET) return null;
  if (!e.LEAD_WEBHOOK_URL) throw new Error('LEAD_WEBHOOK_URL: required when LEAD_WEBHOOK_SECRET is set (the https address of your CRM endpoint)');
  if (!e.LEAD_WEBHOOK_SECRET) throw new Error('LEAD_WEBHOOK_SECRET: required when LEAD_WEBHOOK_URL is set (whsec_ followed by base64 of 24 to 64 random bytes)');
  return { url: e.LEAD_WEBHOOK_URL, secret: e.LEAD_WEBHOOK_SECRET };
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
