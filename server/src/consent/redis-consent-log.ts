// Consent records in Redis: one key per admitted request (written before its call is placed or
// booked: `record` resolves once Redis has acknowledged the SET), expiring DATA_RETENTION_DAYS
// after it was made (the SQLite store deletes them at the same age). Decision: in Redis rather than
// a file per relay, so the proof of consent for a call is where its job is, whichever relay took
// the request, and an operator asks one place. CONSENT_LOG_PATH still appends JSON lines to a file
// per relay when set (app/relay-stores.ts), for shipping elsewhere.
//   <prefix>{<prefix>consent}:<callbackId>   JSON ConsentRecord (no number: its keyed hash)
import { consentRecord, dropRecordsOf, type ConsentLog, type ConsentRecord } from './consent-log.ts';
import type { RedisConnection } from '../storage/redis/connection.ts';
import { scanGroup } from '../storage/redis/scan.ts';
import type { RecordsByNumber } from '../storage/records-by-number.ts';

const RECENT = 1_000;

type Client = RedisConnection['client'];

/** The records of `numberHash` in the group `space`, with their keys (a scan: no index leads from a number to its records). */
async function recordsOf(c: Client, connection: RedisConnection, space: string, numberHash: string): Promise<Array<{ key: string; record: ConsentRecord }>> {
  const found: Array<{ key: string; record: ConsentRecord }> = [];
  for await (const keys of scanGroup(c, connection.topology, space, { MATCH: `${space}*`, COUNT: 500, TYPE: 'string' })) {
    for (const key of keys) {
      const value = await c.get(key);
      const record = value ? (JSON.parse(value) as ConsentRecord) : null;
      if (record?.numberHmac === numberHash) found.push({ key, record });
    }
  }
  return found;
}

export function createRedisConsentLog(options: { connection: RedisConnection; hashSecret: string; retentionDays: number }): ConsentLog & RecordsByNumber<ConsentRecord> {
  const { connection } = options;
  const space = connection.keyspace('consent');
  const ttlMs = options.retentionDays * 86_400_000;
  const recent: ConsentRecord[] = [];
  return {
    async record(input) {
      const entry = consentRecord(input, options.hashSecret);
      await connection.run('consent.record', (c) => c.set(`${space}${input.callbackId}`, JSON.stringify(entry), { PX: ttlMs }));
      recent.push(entry);
      if (recent.length > RECENT) recent.shift();
      return entry;
    },
    recent: () => recent,
    forget: (numberHash) => dropRecordsOf(recent, numberHash),
    ofNumber: async (numberHash) => (await connection.run('consent.of-number', (c) => recordsOf(c, connection, space, numberHash))).map((r) => r.record),
    eraseNumber: (numberHash) =>
      connection.run('consent.erase-number', async (c) => {
        const found = await recordsOf(c, connection, space, numberHash);
        if (found.length > 0) await c.del(found.map(({ key }) => key));
        return found.length;
      }),
  };
}
