// Proof of consent, one record per admitted callback request (placed now, booked, or held while the
// service is unreachable), written before the call is placed or booked: when, from which site,
// whether the visitor ticked the box, which sentence (a hash of its text), which privacy notice it
// linked to, and for which number (a keyed hash: the number itself is never stored). Appended as
// JSON lines to CONSENT_LOG_PATH when set, so records survive restarts; kept in memory (bounded)
// otherwise. The SQLite and Redis logs keep the same record.
import { appendFile } from 'node:fs/promises';
import { createHash, type KeyObject } from 'node:crypto';
import { numberHmac } from '../phone/number-hash.ts';
import { appendingTo } from './file-gate.ts';

export interface ConsentRecord {
  at: string;
  callbackId: string;
  origin: string;
  /** The visitor ticked the consent box (the request's `consent` was true). */
  consented: boolean;
  /** SHA-256 (hex) of the sentence as sent (`consentText`); null when none was sent. */
  textSha256: string | null;
  /** The privacy notice the sentence linked to (`privacyUrl`), as sent; null when none was sent. */
  privacyUrl: string | null;
  numberHmac: string;
}

export interface ConsentInput {
  at: Date;
  callbackId: string;
  origin: string;
  /** The request's `consent`: absent means the box was not ticked (or the widget has none). */
  consented?: boolean;
  text: string | undefined;
  privacyUrl?: string | null;
  e164: string;
}

/** The one record every consent log keeps, whatever it keeps it in (file, SQLite, Redis). */
export function consentRecord(input: ConsentInput, hashSecret: string | KeyObject): ConsentRecord {
  return {
    at: input.at.toISOString(),
    callbackId: input.callbackId,
    origin: input.origin,
    consented: input.consented === true,
    // An empty sentence is still what was sent: only a missing one has no hash.
    textSha256: input.text === undefined ? null : createHash('sha256').update(input.text, 'utf8').digest('hex'),
    privacyUrl: input.privacyUrl ?? null,
    numberHmac: numberHmac(hashSecret, input.e164),
  };
}

export interface ConsentLog {
  /** Resolves once the record is kept (appended, committed, acknowledged); rejects when it is not. */
  record(input: ConsentInput): Promise<ConsentRecord>;
  /** The newest records held in memory: the memory log's own, the other logs' copy of the newest they wrote. */
  recent(): readonly ConsentRecord[];
  /** Drops the number's records from memory (a visitor's data erased on request); answers how many went. */
  forget(numberHash: string): number;
}

/** Removes the records of `numberHash` from `records` in place; answers how many. */
export function dropRecordsOf(records: ConsentRecord[], numberHash: string): number {
  const kept = records.filter((r) => r.numberHmac !== numberHash);
  const dropped = records.length - kept.length;
  if (dropped > 0) records.splice(0, records.length, ...kept);
  return dropped;
}

const memoryLimit = 10_000;

export function createConsentLog(options: { hashSecret: string; path: string | null }): ConsentLog {
  const memory: ConsentRecord[] = [];
  return {
    async record(input) {
      const entry = consentRecord(input, options.hashSecret);
      // The file first: a record it refused must not be listed as kept.
      // Created readable by the relay's user only (docs/data-at-rest.md); an older, looser file is tightened at startup.
      const { path } = options;
      if (path) await appendingTo(path, () => appendFile(path, JSON.stringify(entry) + '\n', { encoding: 'utf8', mode: 0o600 }));
      memory.push(entry);
      if (memory.length > memoryLimit) memory.shift();
      return entry;
    },
    recent: () => memory,
    forget: (numberHash) => dropRecordsOf(memory, numberHash),
  };
}
