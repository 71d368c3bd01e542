// The consent records (consent-log.ts's ConsentLog) in the SQLite file instead of a JSON lines
// file: one row per admitted request, committed before `record` returns, so before the call is
// placed or booked. The same fields: when, which site, whether the box was ticked, the SHA-256 of
// the sentence shown, the privacy notice it linked to, and the keyed hash of the number (never the
// number). `recent()` is synchronous in the interface, so the newest records are also kept in
// memory (loaded at startup). Rows older than DATA_RETENTION_DAYS are deleted by the purge (purge.ts).
import { createSecretKey } from 'node:crypto';
import type { DatabaseSync } from 'node:sqlite';
import { consentRecord, dropRecordsOf, type ConsentLog, type ConsentRecord } from './consent-log.ts';

const RECENT = 10_000;

interface Row {
  at_ms: number;
  callback_id: string;
  origin: string;
  consented: number;
  text_sha256: string | null;
  privacy_url: string | null;
  number_hmac: string;
}

const COLUMNS = 'at_ms, callback_id, origin, consented, text_sha256, privacy_url, number_hmac';

export const toRecord = (r: Row): ConsentRecord => ({
  at: new Date(r.at_ms).toISOString(),
  callbackId: r.callback_id,
  origin: r.origin,
  consented: r.consented === 1,
  textSha256: r.text_sha256,
  privacyUrl: r.privacy_url,
  numberHmac: r.number_hmac,
});

export function createSqliteConsentLog(options: { db: DatabaseSync; hashSecret: string }): ConsentLog {
  const { db } = options;
  const key = createSecretKey(options.hashSecret, 'utf8');
  const insert = db.prepare(`INSERT INTO consent (${COLUMNS}) VALUES (?, ?, ?, ?, ?, ?, ?)`);
  const newest = db.prepare(`SELECT ${COLUMNS} FROM consent ORDER BY id DESC LIMIT ?`).all(RECENT) as unknown as Row[];
  const memory: ConsentRecord[] = newest.reverse().map(toRecord);
  return {
    async record(input) {
      const entry = consentRecord(input, key);
      insert.run(input.at.getTime(), input.callbackId, input.origin, entry.consented ? 1 : 0, entry.textSha256, entry.privacyUrl, entry.numberHmac);
      memory.push(entry);
      if (memory.length > RECENT) memory.shift();
      return entry;
    },
    recent: () => memory,
    forget: (numberHash) => dropRecordsOf(memory, numberHash),
  };
}
