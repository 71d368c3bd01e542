// Erasing a number's records from the consent file (CONSENT_LOG_PATH) rewrites the file; records
// other visitors' requests append meanwhile must all be there afterwards (each proves a consent a
// call was placed on), and the erased number's are gone.
import { readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { expect, it } from 'vitest';
import { createConsentLog } from '../../../server/src/consent/consent-log.ts';
import { numberHmac } from '../../../server/src/phone/number-hash.ts';
import { eraseFromConsentFile, findInConsentFile } from '../../../server/src/consent/erase-from-file.ts';
import { tempDir } from '../../support/temp-dirs.ts';

const SECRET = 'consent-file-erasure-secret-0123456789';

it('keeps every record appended while the file is rewritten without a number', async () => {
  const path = join(tempDir('consent'), 'consent.jsonl');
  const log = createConsentLog({ hashSecret: SECRET, path });
  const record = (i: number, e164: string) => log.record({ at: new Date(), callbackId: `cb-${i}`, origin: 'https://shop.example', consented: true, text: 'Call me.', e164 });
  for (let i = 0; i < 50; i++) await record(i, '+380501234599');
  const erasing = eraseFromConsentFile(path, numberHmac(SECRET, '+380501234599'));
  const others = Array.from({ length: 200 }, (_, i) => record(1000 + i, '+380671112233'));
  expect(await erasing).toBe(50);
  await Promise.all(others);

  const ids = readFileSync(path, 'utf8')
    .trim()
    .split('\n')
    .map((line) => JSON.parse(line).callbackId);
  expect(ids.sort()).toEqual(Array.from({ length: 200 }, (_, i) => `cb-${1000 + i}`).sort());
  expect(await findInConsentFile(path, numberHmac(SECRET, '+380501234599'))).toEqual([]);
  expect((statSync(path).mode & 0o777).toString(8)).toBe('600');
});
