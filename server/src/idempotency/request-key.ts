// What identifies a repeated request: the Idempotency-Key header (validated) and a fingerprint of
// what the request asks for, so the same key sent with another body is refused rather than
// answered with someone else's outcome.
import { createHash } from 'node:crypto';
import { RelayError } from '../contract/errors.ts';

/** Printable ASCII without spaces, 1–255 characters (UUIDs, ULIDs and the like). */
const KEY_PATTERN = /^[\x21-\x7e]{1,255}$/;

/** The Idempotency-Key header, validated; undefined when absent. */
export function readIdempotencyKey(value: string | string[] | undefined): string | undefined {
  if (value === undefined) return undefined;
  const key = Array.isArray(value) ? value[0] : value;
  if (key === undefined || !KEY_PATTERN.test(key) || (Array.isArray(value) && value.length > 1)) {
    throw new RelayError('invalid_request', 'The Idempotency-Key header must be 1 to 255 visible ASCII characters, sent once.', { field: 'Idempotency-Key' });
  }
  return key;
}

/** A stable fingerprint of what a request asks for. */
export function requestFingerprint(value: unknown): string {
  return createHash('sha256').update(canonicalJson(value)).digest('base64url');
}

function canonicalJson(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonicalJson).join(',')}]`;
  if (value && typeof value === 'object') {
    const entries = Object.entries(value as Record<string, unknown>)
      .filter(([, v]) => v !== undefined)
      .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
    return `{${entries.map(([k, v]) => `${JSON.stringify(k)}:${canonicalJson(v)}`).join(',')}}`;
  }
  return JSON.stringify(value) ?? 'null';
}
