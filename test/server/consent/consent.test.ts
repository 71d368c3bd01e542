// Consent records over real sockets: one per admitted request (placed now, booked, held while the
// service is unreachable), kept before anything can ring the visitor's phone, proving when, on
// which site, to which sentence and privacy notice the visitor agreed, without ever storing the
// number. With REQUIRE_CONSENT a record the store refuses stops the call.
import { describe, expect, it } from 'vitest';
import { mkdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { createHash, createHmac } from 'node:crypto';
import { DatabaseSync } from 'node:sqlite';
import { DATABASE_FILE } from '../../../server/src/storage/sqlite/database.ts';
import { deadUrl } from '../../support/listen.ts';
import { ORIGIN, postCallback } from '../../support/post-callback.ts';
import { callbackCalls, errorOf, QUICK_CALLS, systemPerTest, type System } from '../../support/system.ts';
import { tempDir } from '../../support/temp-dirs.ts';

const TEXT = 'I agree to be called back about my order.';
const PRIVACY = 'https://shop.example/privacy';
const SECRET = 'consent-test-secret-0123456789';
const ISO = /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/;
const sha256 = (text: string) => createHash('sha256').update(text, 'utf8').digest('hex');
const numberHash = (e164: string) => createHmac('sha256', SECRET).update(e164).digest('hex');

const start = systemPerTest({ ALLOWED_ORIGINS: ORIGIN, HASH_SECRET: SECRET }, { simulator: { timing: QUICK_CALLS } });
/** The relay's clock moves on a millisecond each time it is read, so the order of two writes shows in their times. */
let reads = 0;
const startTicking = systemPerTest({ ALLOWED_ORIGINS: ORIGIN, HASH_SECRET: SECRET }, { now: () => new Date(Date.now() + ++reads) });

const post = (s: System, body: Record<string, unknown>, headers: Record<string, string> = {}) => postCallback(s, body, { headers });

/** A ticked box with the sentence and its privacy notice, as the widget sends them. */
const agreed = { consent: true, consentText: TEXT, privacyUrl: PRIVACY };

/** Two hours from now, on the minute: a time any always-open office takes. */
const inTwoHours = () => new Date(Math.ceil((Date.now() + 2 * 3_600_000) / 60_000) * 60_000).toISOString();

async function until(probe: () => boolean, what: string): Promise<void> {
  for (let i = 0; i < 500; i++) {
    if (probe()) return;
    await new Promise((r) => setTimeout(r, 10));
  }
  throw new Error(`timed out waiting for ${what}`);
}

/** The file that holds the relay's state, opened beside the relay as an operator (or a backup) would. */
const openFile = (s: System, readOnly = true) => new DatabaseSync(join(s.config.store.dataDir, DATABASE_FILE), { readOnly });

interface Row {
  at_ms: number;
  callback_id: string;
  origin: string;
  consented: number;
  text_sha256: string | null;
  privacy_url: string | null;
  number_hmac: string;
}

/** The consent rows committed to the file, oldest first. */
function consentRows(s: System): Row[] {
  const db = openFile(s);
  try {
    return db.prepare('SELECT at_ms, callback_id, origin, consented, text_sha256, privacy_url, number_hmac FROM consent ORDER BY id').all() as unknown as Row[];
  } finally {
    db.close();
  }
}

const rowOf = (callbackId: string, e164: string, over: Partial<Row> = {}): Row => ({
  at_ms: expect.any(Number) as unknown as number,
  callback_id: callbackId,
  origin: ORIGIN,
  consented: 1,
  text_sha256: sha256(TEXT),
  privacy_url: PRIVACY,
  number_hmac: numberHash(e164),
  ...over,
});

/**
 * The consent table refuses every insert from now on (a trigger in the file itself): the store is
 * unavailable for consent records only, while limits, Idempotency-Keys and jobs still work.
 */
function refuseConsentWrites(s: System): void {
  const db = openFile(s, false);
  db.exec("CREATE TRIGGER consent_refused BEFORE INSERT ON consent BEGIN SELECT RAISE(ABORT, 'consent records refused by the test'); END");
  db.close();
}
function acceptConsentWrites(s: System): void {
  const db = openFile(s, false);
  db.exec('DROP TRIGGER consent_refused');
  db.close();
}

const consentErrors = (s: System) => s.logs.filter((l) => l.level === 'error' && String(l.msg).startsWith('consent record not written'));

describe('the consent record of each admitted request', () => {
  it('of a call placed now: committed before the service is asked, with the sentence hash, privacy URL, site, time and number hash', async () => {
    const s = await start();
    // The service holds the call a moment, so the file can be read while it is being placed.
    s.sim.faults.set('callback', { kind: 'delay', ms: 1_500, times: 1 });
    const before = Date.now();
    const answer = post(s, { phone: '050 123 45 67', ...agreed });
    await until(() => callbackCalls(s).length === 1, 'the call to reach the service');
    const [row, ...more] = consentRows(s);
    expect(more).toEqual([]);
    expect(row).toEqual(rowOf(expect.any(String) as unknown as string, '+380501234567'));
    expect(row!.at_ms).toBeGreaterThanOrEqual(before);
    expect(row!.at_ms).toBeLessThanOrEqual(callbackCalls(s)[0]!.at.getTime());

    const res = await answer;
    expect(res.status).toBe(202);
    expect((res.json as { requestId: string }).requestId).toBe(row!.callback_id);
    expect(s.relay.app.consent.recent()).toEqual([
      {
        at: new Date(row!.at_ms).toISOString(),
        callbackId: row!.callback_id,
        origin: ORIGIN,
        consented: true,
        textSha256: sha256(TEXT),
        privacyUrl: PRIVACY,
        numberHmac: numberHash('+380501234567'),
      },
    ]);
    expect(JSON.stringify(consentRows(s))).not.toContain('501234567');
  });

  it('of a booked call: kept with the booking, under the same request id, and no call placed', async () => {
    const s = await start();
    const res = await post(s, { phone: '050 123 45 67', scheduledFor: inTwoHours(), ...agreed });
    expect(res.status).toBe(202);
    const { requestId, status } = res.json as { requestId: string; status: string };
    expect(status).toBe('scheduled');
    expect(await s.relay.app.stores.jobs.get(requestId)).toMatchObject({ stage: 'scheduled', state: 'pending' });
    expect(consentRows(s)).toEqual([rowOf(requestId, '+380501234567')]);
    expect(callbackCalls(s)).toHaveLength(0);
  });

  it('of a call held while the service is unreachable (202 queued): kept before the call was held, under its request id', async () => {
    const s = await startTicking({
      CALLTRACKING_BASE_URL: await deadUrl(),
      CALLTRACKING_AUTH_KEY: 'refused-auth-key-1234',
      CALLTRACKING_PROJECT_ID: '1',
      CALLBACK_CALLER: '380441112233',
    });
    const res = await post(s, { phone: '050 765 43 21', ...agreed });
    expect(res.status).toBe(202);
    const { requestId, status } = res.json as { requestId: string; status: string };
    expect(status).toBe('queued');
    const job = await s.relay.app.stores.jobs.get(requestId);
    expect(job).toMatchObject({ stage: 'queued', state: 'pending' });
    const rows = consentRows(s);
    expect(rows).toEqual([rowOf(requestId, '+380507654321')]);
    // The job is due when it was held: the record is older.
    expect(rows[0]!.at_ms).toBeLessThan(job!.dueAt);
  });

  it('says so when the box was not ticked and no sentence or notice was sent (REQUIRE_CONSENT off)', async () => {
    const s = await start();
    const res = await post(s, { phone: '050 123 45 67' });
    expect(res.status).toBe(202);
    const { requestId } = res.json as { requestId: string };
    expect(consentRows(s)).toEqual([rowOf(requestId, '+380501234567', { consented: 0, text_sha256: null, privacy_url: null })]);
  });

  it('appends the same record to CONSENT_LOG_PATH as a JSON line, with hashes instead of the number', async () => {
    const path = join(tempDir('consent'), 'consent.jsonl');
    const s = await start({ REQUIRE_CONSENT: 'true', CONSENT_LOG_PATH: path });
    const res = await post(s, { phone: '050 123 45 67', ...agreed });
    expect(res.status).toBe(202);
    const { requestId } = res.json as { requestId: string };

    const lines = readFileSync(path, 'utf8').trim().split('\n');
    expect(lines).toHaveLength(1);
    expect(lines[0]).not.toContain('501234567');
    expect(JSON.parse(lines[0]!)).toEqual({
      at: expect.stringMatching(ISO),
      callbackId: requestId,
      origin: ORIGIN,
      consented: true,
      textSha256: sha256(TEXT),
      privacyUrl: PRIVACY,
      numberHmac: numberHash('+380501234567'),
    });
  });

  it('is not written for a request refused before it is admitted; a call the service refuses keeps its record', async () => {
    const s = await start({ REQUIRE_CONSENT: 'true' });
    expect((await post(s, { phone: '050 123 45 67', consent: false })).status).toBe(400);
    expect((await post(s, { phone: '050 123 45 67', ...agreed, privacyUrl: '/privacy' })).status).toBe(400);
    expect(consentRows(s)).toEqual([]);
    // The service was asked, and may have rung: the consent given for it stays on record.
    s.sim.faults.set('callback', { kind: 'rpc_error', times: 1 });
    const refused = await post(s, { phone: '050 123 45 67', ...agreed });
    expect(refused.status).toBe(502);
    expect(consentRows(s)).toEqual([rowOf(expect.any(String) as unknown as string, '+380501234567')]);
    // A limit refuses the next try for the number: nothing admitted, nothing recorded.
    expect((await errorOf(await post(s, { phone: '050 123 45 67', ...agreed }))).code).toBe('rate_limited');
    expect(consentRows(s)).toHaveLength(1);
  });
});

describe('privacyUrl', () => {
  it('takes an absolute http(s) URL and refuses anything else with 400 invalid_request at privacyUrl, before the service is asked', async () => {
    const s = await start();
    for (const bad of [
      '/privacy',
      'privacy.html',
      'javascript:alert(1)',
      'ftp://shop.example/privacy',
      'https://',
      'https://shop.example/a b',
      `https://shop.example/${'p'.repeat(2000)}`,
      42,
    ]) {
      const res = await post(s, { phone: '050 123 45 67', ...agreed, privacyUrl: bad });
      const body = res.json as { error: { code: string; field?: string } };
      expect({ bad, status: res.status, code: body.error.code, field: body.error.field }).toEqual({ bad, status: 400, code: 'invalid_request', field: 'privacyUrl' });
    }
    expect(callbackCalls(s)).toHaveLength(0);
    expect((await post(s, { phone: '050 123 45 67', ...agreed, privacyUrl: 'http://shop.example/legal/privacy?lang=uk#calls' })).status).toBe(202);
  });
});

describe('a record the store cannot write', () => {
  it('with REQUIRE_CONSENT: neither placed nor booked, 503 with Retry-After, an error logged without the number, its limits given back', async () => {
    const s = await start({ REQUIRE_CONSENT: 'true' });
    refuseConsentWrites(s);
    const now = { phone: '050 123 45 67', ...agreed };
    const later = { phone: '050 765 43 21', scheduledFor: inTwoHours(), ...agreed };
    const key = { 'idempotency-key': 'consent-key-0001' };
    for (const res of [await post(s, now, key), await post(s, later)]) {
      expect(await errorOf(res)).toEqual({ status: 503, code: 'temporarily_unavailable', retryAfter: 10, bodyRetryAfter: 10 });
    }
    expect(callbackCalls(s)).toHaveLength(0);
    expect(await s.relay.app.stores.jobs.listPending(10)).toEqual([]);
    expect(consentRows(s)).toEqual([]);
    const errors = consentErrors(s);
    expect(errors).toHaveLength(2);
    expect(errors.map((l) => l.phone)).toEqual([expect.stringContaining('*'), expect.stringContaining('*')]);
    expect(s.rawLogs.join('\n')).not.toMatch(/501234567|507654321/);

    // Once the store takes records again, the same client and numbers are admitted at once: the
    // number's cooldown and the client's counts of the refused tries were given back, and the
    // Idempotency-Key was freed.
    acceptConsentWrites(s);
    const placed = await post(s, now, key);
    expect(placed.status).toBe(202);
    const booked = await post(s, later);
    expect(booked.status).toBe(202);
    const ids = [(placed.json as { requestId: string }).requestId, (booked.json as { requestId: string }).requestId];
    expect(consentRows(s)).toEqual([rowOf(ids[0]!, '+380501234567'), rowOf(ids[1]!, '+380507654321')]);
    expect(callbackCalls(s)).toHaveLength(1);
  });

  it('with REQUIRE_CONSENT and CONSENT_LOG_PATH in a directory that is gone: 503 and no call, admitted once it is back', async () => {
    const dir = join(tempDir('consent'), 'gone');
    const s = await start({ REQUIRE_CONSENT: 'true', CONSENT_LOG_PATH: join(dir, 'consent.jsonl') });
    const res = await post(s, { phone: '050 123 45 67', ...agreed });
    expect(await errorOf(res)).toMatchObject({ status: 503, code: 'temporarily_unavailable', retryAfter: 10 });
    expect(callbackCalls(s)).toHaveLength(0);
    expect(s.relay.app.consent.recent()).toEqual([]);

    mkdirSync(dir);
    expect((await post(s, { phone: '050 123 45 67', ...agreed })).status).toBe(202);
    expect(readFileSync(join(dir, 'consent.jsonl'), 'utf8').trim().split('\n')).toHaveLength(1);
    expect(callbackCalls(s)).toHaveLength(1);
  });

  it('without REQUIRE_CONSENT: logged as an error before the service is asked, and the call goes on', async () => {
    const s = await start();
    refuseConsentWrites(s);
    s.sim.faults.set('callback', { kind: 'delay', ms: 1_500, times: 1 });
    const answer = post(s, { phone: '050 123 45 67', consent: true, consentText: TEXT });
    await until(() => callbackCalls(s).length === 1, 'the call to reach the service');
    expect(consentErrors(s)).toHaveLength(1);
    expect((await answer).status).toBe(202);
    expect(consentRows(s)).toEqual([]);
    expect(s.rawLogs.join('\n')).not.toContain('501234567');
  });
});
