// The consent logs' contract: memory, the JSON-lines file (CONSENT_LOG_PATH), SQLite and Redis keep
// the same record (when, which site, ticked or not, the sentence's hash, the privacy notice, the
// number's keyed hash, never the number), and a record a store cannot keep is refused, not listed:
// the relay acts on that refusal (REQUIRE_CONSENT), so it must never look kept.
import { describe, expect, it } from 'vitest';
import { mkdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { createHash, createHmac } from 'node:crypto';
import { createConsentLog, type ConsentInput, type ConsentRecord } from '../../../server/src/consent/consent-log.ts';
import { createRedisConsentLog } from '../../../server/src/consent/redis-consent-log.ts';
import { createSqliteConsentLog } from '../../../server/src/consent/sqlite-consent-log.ts';
import { openDatabase } from '../../../server/src/storage/sqlite/database.ts';
import { schemaVersion } from '../../../server/src/storage/sqlite/migrations.ts';
import { migrations } from '../../../server/src/storage/sqlite/schema.ts';
import { T0, tempDataDir } from '../../support/crash.ts';
import { redisForTests } from '../../support/redis-test-connection.ts';

const redis = redisForTests();

const secret = 'a-test-hash-secret-0123456789';
const ORIGIN = 'https://shop.example';
const TEXT = 'I agree to be called back.';
const PRIVACY = 'https://shop.example/privacy';
const sha256 = (text: string) => createHash('sha256').update(text, 'utf8').digest('hex');
const hmac = createHmac('sha256', secret).update('+380501234567').digest('hex');

/** A ticked box, its sentence and notice; an unticked one with nothing sent; a caller that names neither (an empty sentence is still a sentence). */
const inputs: ConsentInput[] = [
  { at: new Date(T0), callbackId: 'req-1', origin: ORIGIN, consented: true, text: TEXT, privacyUrl: PRIVACY, e164: '+380501234567' },
  { at: new Date(T0 + 1_000), callbackId: 'req-2', origin: ORIGIN, consented: false, text: undefined, privacyUrl: null, e164: '+380501234567' },
  { at: new Date(T0 + 2_000), callbackId: 'req-3', origin: ORIGIN, text: '', e164: '+380501234567' },
];
const expected: ConsentRecord[] = [
  { at: new Date(T0).toISOString(), callbackId: 'req-1', origin: ORIGIN, consented: true, textSha256: sha256(TEXT), privacyUrl: PRIVACY, numberHmac: hmac },
  { at: new Date(T0 + 1_000).toISOString(), callbackId: 'req-2', origin: ORIGIN, consented: false, textSha256: null, privacyUrl: null, numberHmac: hmac },
  { at: new Date(T0 + 2_000).toISOString(), callbackId: 'req-3', origin: ORIGIN, consented: false, textSha256: sha256(''), privacyUrl: null, numberHmac: hmac },
];
const refused = { ...inputs[0]!, callbackId: 'req-refused' };

async function recordAll(log: { record(input: ConsentInput): Promise<ConsentRecord> }): Promise<ConsentRecord[]> {
  const out: ConsentRecord[] = [];
  for (const input of inputs) out.push(await log.record(input));
  return out;
}

describe('consent logs keep the whole record', () => {
  it('memory', async () => {
    const log = createConsentLog({ hashSecret: secret, path: null });
    expect(await recordAll(log)).toEqual(expected);
    expect(log.recent()).toEqual(expected);
  });

  it('JSON-lines file: one line per record; a line it cannot append is refused and not listed', async () => {
    const dir = join(tempDataDir(), 'consent');
    const log = createConsentLog({ hashSecret: secret, path: join(dir, 'consent.jsonl') });
    // The directory is not there yet: the append fails.
    await expect(log.record(refused)).rejects.toThrow(/ENOENT/);
    expect(log.recent()).toEqual([]);
    mkdirSync(dir);
    expect(await recordAll(log)).toEqual(expected);
    const lines = readFileSync(join(dir, 'consent.jsonl'), 'utf8').trim().split('\n');
    expect(lines.map((l) => JSON.parse(l))).toEqual(expected);
    expect(lines.join('\n')).not.toContain('501234567');
    expect(log.recent()).toEqual(expected);
  });

  it('SQLite: committed, and still there after a reopen; an insert the file refuses is refused and not listed', async () => {
    const dir = tempDataDir();
    const db = openDatabase({ dataDir: dir });
    const log = createSqliteConsentLog({ db, hashSecret: secret });
    db.exec("CREATE TRIGGER consent_refused BEFORE INSERT ON consent BEGIN SELECT RAISE(ABORT, 'refused'); END");
    await expect(log.record(refused)).rejects.toThrow(/refused/);
    expect(log.recent()).toEqual([]);
    db.exec('DROP TRIGGER consent_refused');
    expect(await recordAll(log)).toEqual(expected);
    const dump = JSON.stringify(db.prepare('SELECT * FROM consent').all());
    expect(dump).not.toContain('501234567');
    db.close();

    const reopened = openDatabase({ dataDir: dir });
    expect(createSqliteConsentLog({ db: reopened, hashSecret: secret }).recent()).toEqual(expected);
    reopened.close();
  });

  it('Redis: one key per record under the consent keyspace, expiring with DATA_RETENTION_DAYS; a SET Redis refuses is refused and not listed', async () => {
    const connection = redis.fresh();
    const log = createRedisConsentLog({ connection, hashSecret: secret, retentionDays: 30 });
    // Redis refuses every write while it has too few replicas (a real refusal: -NOREPLICAS).
    await connection.client.configSet('min-replicas-to-write', '1');
    try {
      await expect(log.record(refused)).rejects.toMatchObject({ name: 'StoreUnavailableError', operation: 'consent.record' });
    } finally {
      await connection.client.configSet('min-replicas-to-write', '0');
    }
    expect(log.recent()).toEqual([]);
    expect(await recordAll(log)).toEqual(expected);
    const space = connection.keyspace('consent');
    for (const record of expected) {
      const raw = await connection.client.get(`${space}${record.callbackId}`);
      expect(JSON.parse(raw!)).toEqual(record);
      expect(raw).not.toContain('501234567');
      const ttl = await connection.client.pTTL(`${space}${record.callbackId}`);
      expect(ttl).toBeGreaterThan(29 * 86_400_000);
      expect(ttl).toBeLessThanOrEqual(30 * 86_400_000);
    }
    expect(await connection.client.exists(`${space}req-refused`)).toBe(0);
    expect(log.recent()).toEqual(expected);
  });
});

describe('SQLite schema version 4', () => {
  it('adds consented and privacy_url; every earlier row, written only for a ticked box, reads as ticked with no notice', async () => {
    const dir = tempDataDir();
    const old = openDatabase({ dataDir: dir, migrations: migrations.slice(0, 3) });
    expect(schemaVersion(old)).toBe(3);
    old.prepare('INSERT INTO consent (at_ms, callback_id, origin, text_sha256, number_hmac) VALUES (?, ?, ?, ?, ?)').run(T0, 'req-old', ORIGIN, sha256(TEXT), hmac);
    old.close();

    const db = openDatabase({ dataDir: dir });
    expect(schemaVersion(db)).toBe(migrations.length);
    const log = createSqliteConsentLog({ db, hashSecret: secret });
    expect(log.recent()).toEqual([{ ...expected[0]!, callbackId: 'req-old', privacyUrl: null }]);
    // A new row must say whether the box was ticked: the column takes 0 or 1 only.
    expect(() => db.prepare("INSERT INTO consent (at_ms, callback_id, origin, consented, number_hmac) VALUES (0, 'x', 'o', 2, 'h')").run()).toThrow(/CHECK/);
    await log.record(inputs[1]!);
    expect(createSqliteConsentLog({ db, hashSecret: secret }).recent()).toEqual([{ ...expected[0]!, callbackId: 'req-old', privacyUrl: null }, expected[1]]);
    db.close();
  });
});
