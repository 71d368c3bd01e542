// A visitor's data on request on the embedded store: GET /owner/api/numbers/<E.164> shows every
// record kept about the number; DELETE erases them, and afterwards the number's digits are nowhere
// in DATA_DIR, in any of the forms it is written in (the SQLite file and its WAL read byte by byte),
// while another visitor's records stay and the never-call list keeps its keyed hash.
import { spawnSync } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { DatabaseSync } from 'node:sqlite';
import { describe, expect, it, vi } from 'vitest';
import { callsSettled, heldRelayPerTest } from '../../support/held-calls.ts';
import { postCallback } from '../../support/post-callback.ts';
import { QUICK_CALLS, startSystem, type System } from '../../support/system.ts';
import type { NumberData } from '../../../server/src/number-data/number-data.ts';

const NOON = new Date('2026-11-25T10:00:00Z');
const { clock, start } = heldRelayPerTest(NOON);
const ERASED = '+380501234599'; // never answers in the simulator
const OTHER = '+380671112233';
/** Every way the erased number is written: E.164, international digits, national, national spaced, and in a utm value. */
const FORMS = ['+380501234599', '380501234599', '0501234599', '050 123 45 99', '501234599', 'sofa 050-123-45-99'];

function dataDirHolds(dir: string, forms: readonly string[]): string[] {
  const found: string[] = [];
  for (const name of readdirSync(dir)) {
    const bytes = readFileSync(join(dir, name));
    for (const form of forms) if (bytes.includes(Buffer.from(form, 'utf8'))) found.push(`${name}: ${form}`);
  }
  return found;
}

/** As the owner view sends it in demo mode: the browser says the relay's own page asked (a change needs that). */
const owner = (s: System, path: string, method = 'GET') => fetch(`${s.relayUrl}${path}`, { method, headers: { 'sec-fetch-site': 'same-origin' } });

describe('a visitor’s data on request (embedded store)', () => {
  it('shows everything kept about a number, then erases it from the file and its WAL', async () => {
    const s = await start({ REDIAL_ATTEMPTS: '0', REQUIRE_CONSENT: 'true' });
    const dir = s.config.store.dataDir;
    const body = { consent: true, consentText: 'Call me back.', attribution: { utmSource: 'google', utmCampaign: 'sofa' }, pageUrl: 'https://shop.example/sofa' };
    // The visitor's own utm value names the number: the lead report keeps it for 400 days.
    const trackingConsent = { analytics: 'granted', ads: 'denied', source: 'tcf', cookiesRead: true } as const;
    const missed = await postCallback(s, { phone: ERASED, ...body, attribution: { utmSource: 'google', utmCampaign: 'sofa 050-123-45-99' }, trackingConsent });
    expect(missed.status).toBe(202);
    await callsSettled(s, ERASED);
    clock.advance(30_000);
    await s.relay.runner.runOnce();
    await s.relay.app.delivery!.runOnce();
    const booked = await postCallback(s, { phone: OTHER, ...body, scheduledFor: new Date(clock.ms + 3_600_000).toISOString() });
    expect(booked.json.status).toBe('scheduled');
    expect((await owner(s, `/owner/api/leads/${missed.json.requestId}/never-call`, 'POST')).status).toBe(200);

    const shown = (await (await owner(s, `/owner/api/numbers/${encodeURIComponent(ERASED)}`)).json()) as NumberData;
    expect(shown.number).toBe(ERASED);
    expect(shown.calls).toEqual([
      expect.objectContaining({
        callbackId: missed.json.requestId,
        requestedAs: 'now',
        stage: 'missed',
        attribution: { utmSource: 'google', utmCampaign: 'sofa 050-123-45-99' },
        trackingConsent,
      }),
    ]);
    expect(shown.report).toEqual({ leads: [expect.objectContaining({ callbackId: missed.json.requestId, values: { campaign: 'sofa 050-123-45-99' } })], opens: [], more: false });
    expect(shown.consent).toEqual([expect.objectContaining({ callbackId: missed.json.requestId, consented: true })]);
    expect(shown.outbox.map((e) => e.type)).toEqual(['callback.missed']);
    expect(shown.callBack).toEqual([expect.objectContaining({ callbackId: missed.json.requestId })]);
    expect(shown.limits.refusals.map((r) => r.reason)).toContain('number_cooldown');
    expect(shown.neverCall.listed).toBe(true);
    // The path's + may come as is, and a malformed number is a 400 naming it.
    expect(((await (await owner(s, `/owner/api/numbers/${ERASED}`)).json()) as NumberData).calls).toHaveLength(1);
    const bad = await owner(s, '/owner/api/numbers/0501234599');
    expect(bad.status).toBe(400);
    expect(await bad.json()).toMatchObject({ error: { code: 'invalid_phone', field: 'number' } });

    // The file holds the number (the kept call-back number) before: the check below can fail.
    expect(dataDirHolds(dir, FORMS).length).toBeGreaterThan(0);

    // No whole-file rewrite on the request path: deleted rows are overwritten as they go
    // (secure_delete=ON) and the WAL is truncated in the checkpointer's worker thread.
    const statements: string[] = [];
    const { exec, prepare } = DatabaseSync.prototype;
    const spies = [
      vi.spyOn(DatabaseSync.prototype, 'exec').mockImplementation(function (this: DatabaseSync, sql: string) {
        statements.push(sql);
        return exec.call(this, sql);
      }),
      vi.spyOn(DatabaseSync.prototype, 'prepare').mockImplementation(function (this: DatabaseSync, sql: string) {
        statements.push(sql);
        return prepare.call(this, sql);
      }),
    ];
    const erased = await owner(s, `/owner/api/numbers/${encodeURIComponent(ERASED)}`, 'DELETE');
    for (const spy of spies) spy.mockRestore();
    expect(statements.filter((sql) => /vacuum|wal_checkpoint/i.test(sql))).toEqual([]);
    expect(erased.status).toBe(200);
    expect(await erased.json()).toMatchObject({
      number: ERASED,
      erased: { calls: 1, consent: 1, outbox: 1, callBack: 1, report: { leads: 1, opens: 0 } },
      kept: { neverCall: true },
    });
    expect(dataDirHolds(dir, FORMS)).toEqual([]);
    const after = (await (await owner(s, `/owner/api/numbers/${encodeURIComponent(ERASED)}`)).json()) as NumberData;
    expect(after).toMatchObject({ calls: [], consent: [], outbox: [], callBack: [], neverCall: { listed: true }, report: { leads: [], opens: [] } });

    // The other visitor's booking is untouched, and the erased number is still refused.
    const other = (await (await owner(s, `/owner/api/numbers/${encodeURIComponent(OTHER)}`)).json()) as NumberData;
    expect(other.calls).toEqual([expect.objectContaining({ stage: 'scheduled', numberKept: true })]);
    expect(dataDirHolds(dir, ['380671112233']).length).toBeGreaterThan(0);
    expect((await postCallback(s, { phone: ERASED, ...body })).json.error?.code).toBe('number_not_allowed');
    expect(s.rawLogs.join('\n')).not.toContain('501234599');
  });
});

describe('the operators’ command (npm run data)', () => {
  it('shows and erases a number in the store of a stopped relay, leaving no digit in DATA_DIR', async () => {
    const s = await startSystem(
      { ALLOWED_ORIGINS: 'https://shop.example', HASH_SECRET: 'number-data-cli-secret-0123456789', REDIAL_ATTEMPTS: '0' },
      { simulator: { timing: QUICK_CALLS } },
    );
    const dir = s.config.store.dataDir;
    const booked = await postCallback(s, { phone: ERASED, scheduledFor: new Date(Date.now() + 3_600_000).toISOString() });
    expect(booked.json.status).toBe('scheduled');
    await s.close();
    expect(dataDirHolds(dir, FORMS).length).toBeGreaterThan(0);

    const env = { ...process.env, DATA_DIR: dir, HASH_SECRET: 'number-data-cli-secret-0123456789', LOG_LEVEL: 'warn' };
    const cli = (...args: string[]) => spawnSync(process.execPath, ['server/src/app/number-data-cli.ts', ...args], { env, encoding: 'utf8' });
    const shown = cli('show', ERASED);
    expect(shown.status, shown.stderr).toBe(0);
    expect((JSON.parse(shown.stdout) as NumberData).calls).toEqual([expect.objectContaining({ callbackId: booked.json.requestId, stage: 'scheduled', numberKept: true })]);
    const erased = cli('erase', ERASED);
    expect(erased.status, erased.stderr).toBe(0);
    expect(JSON.parse(erased.stdout)).toMatchObject({ erased: { calls: 1, consent: 1 }, kept: { neverCall: false } });
    expect(dataDirHolds(dir, FORMS)).toEqual([]);

    const wrong = cli('erase', '050 123 45 99');
    expect(wrong.status).toBe(2);
    expect(wrong.stderr).toMatch(/E\.164/);
  }, 120_000);
});
