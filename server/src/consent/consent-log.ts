// Proof of consent, one record per accepted call: when, from which site, which sentence (a hash of
// its text) and for which number (a keyed hash: the number itself is never stored). Appended as JSON
// lines to CONSENT_LOG_PATH when set, so records survive restarts; kept in memory (bounded) otherwise.
import { appendFile } from 'node:fs/promises';
import { createHash, createHmac, type KeyObject } from 'node:crypto';

export interface ConsentRecord {
  at: string;
  callbackId: string;
  origin: string;
  textSha256: string | null;
  numberHmac: string;
}

/** The keyed hash a stored record keeps of a number (HMAC-SHA256 with HASH_SECRET, hex): consent records and held calls. */
export const numberHmac = (hashSecret: string | KeyObject, e164: string): string => createHmac('sha256', hashSecret).update(e164).digest('hex');

export type ConsentInput = Parameters<ConsentLog['record']>[0];

/** The one record every consent log keeps, whatever it keeps it in (file, SQLite, Redis). */
export function consentRecord({ at, callbackId, origin, text, e164 }: ConsentInput, hashSecret: string | KeyObject): ConsentRecord {
  return {
    at: at.toISOString(),
    callbackId,
    origin,
    textSha256: text ? createHash('sha256').update(text, 'utf8').digest('hex') : null,
    numberHmac: numberHmac(hashSecret, e164),
  };
}

export interface ConsentLog {
  record(input: { at: Date; callbackId: string; origin: string; text: string | undefined; e164: string }): Promise<ConsentRecord>;
  recent(): readonly ConsentRecord[];
}

const memoryLimit = 10_000;

export function createConsentLog(options: { hashSecret: string; path: string | null }): ConsentLog {
  const memory: ConsentRecord[] = [];
  return {
    async record(input) {
      const entry = consentRecord(input, options.hashSecret);
      memory.push(entry);
      if (memory.length > memoryLimit) memory.shift();
      if (options.path) await appendFile(options.path, JSON.stringify(entry) + '\n', 'utf8');
      return entry;
    },
    recent: () => memory,
  };
}
