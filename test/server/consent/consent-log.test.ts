// Consent records in SQLite: the same records as the file-backed log (callback/consent-log.ts),
// the number only as its keyed hash, and still there after a reopen.
import { describe, expect, it } from 'vitest';
import { createConsentLog } from '../../../server/src/consent/consent-log.ts';
import { openDatabase } from '../../../server/src/storage/sqlite/database.ts';
import { createSqliteConsentLog } from '../../../server/src/consent/sqlite-consent-log.ts';
import { T0, tempDataDir } from '../../support/crash.ts';

const secret = 'a-test-hash-secret-0123456789';
const input = { at: new Date(T0), callbackId: 'req-1', origin: 'https://shop.example', text: 'I agree to be called back.', e164: '+380501234567' };

describe('sqlite consent log', () => {
  it('records what the file log records, and keeps it across a reopen', async () => {
    const dir = tempDataDir();
    const db = openDatabase({ dataDir: dir });
    const log = createSqliteConsentLog({ db, hashSecret: secret });
    const entry = await log.record(input);
    expect(entry).toEqual(await createConsentLog({ hashSecret: secret, path: null }).record(input));
    await log.record({ ...input, callbackId: 'req-2', text: undefined });
    // Nothing in the file holds the number.
    const dump = JSON.stringify(db.prepare('SELECT * FROM consent').all());
    expect(dump).not.toContain('501234567');
    db.close();

    const reopened = createSqliteConsentLog({ db: openDatabase({ dataDir: dir }), hashSecret: secret });
    expect(reopened.recent()).toEqual([entry, { ...entry, callbackId: 'req-2', textSha256: null }]);
  });
});
