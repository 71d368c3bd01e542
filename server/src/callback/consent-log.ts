// Proof of consent, one record per accepted call: when, from which site, which sentence (a hash of
// its text) and for which number (a keyed hash: the number itself is never stored). Appended as JSON
// lines to CONSENT_LOG_PATH when set, so records survive restarts; kept in memory (bounded) otherwise.
import { appendFile } from 'node:fs/promises';
import { createHash, createHmac } from 'node:crypto';

export interface ConsentRecord {
  at: string;
  callbackId: string;
  origin: string;
  textSha256: string | null;
  numberHmac: string;
}

export interface ConsentLog {
  record(input: { at: Date; callbackId: string; origin: string; text: string | undefined; e164: string }): Promise<ConsentRecord>;
  recent(): readonly ConsentRecord[];
}

const memoryLimit = 10_000;

export function createConsentLog(options: { hashSecret: string; path: string | null }): ConsentLog {
  const memory: ConsentRecord[] = [];
  return {
    async record({ at, callbackId, origin, text, e164 }) {
      const entry: ConsentRecord = {
        at: at.toISOString(),
        callbackId,
        origin,
        textSha256: text ? createHash('sha256').update(text, 'utf8').digest('hex') : null,
        numberHmac: createHmac('sha256', options.hashSecret).update(e164).digest('hex'),
      };
      memory.push(entry);
      if (memory.length > memoryLimit) memory.shift();
      if (options.path) await appendFile(options.path, JSON.stringify(entry) + '\n', 'utf8');
      return entry;
    },
    recent: () => memory,
  };
}
