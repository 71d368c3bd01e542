// Consent records: one per accepted call, proving when, where and to which sentence the visitor
// agreed, without ever storing the number.
import { afterEach, describe, expect, it } from 'vitest';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createHash, createHmac } from 'node:crypto';
import { ORIGIN, postCallback } from '../../support/post-callback.ts';
import { startSystem, type System } from '../../support/system.ts';

const TEXT = 'I agree to be called back about my order.';
const SECRET = 'consent-test-secret-0123456789';
let system: System | undefined;
const dir = mkdtempSync(join(tmpdir(), 'dialback-consent-'));
afterEach(async () => {
  await system?.close();
});

describe('consent records', () => {
  it('appends one record per accepted call to CONSENT_LOG_PATH, with hashes instead of the number', async () => {
    const path = join(dir, 'consent.jsonl');
    system = await startSystem({ ALLOWED_ORIGINS: ORIGIN, REQUIRE_CONSENT: 'true', CONSENT_LOG_PATH: path, HASH_SECRET: SECRET });
    const res = await postCallback(system!, { phone: '050 123 45 67', consent: true, consentText: TEXT, privacyUrl: 'https://shop.example/privacy' });
    expect(res.status).toBe(202);
    const { requestId } = res.json;

    const lines = readFileSync(path, 'utf8').trim().split('\n');
    expect(lines).toHaveLength(1);
    expect(lines[0]).not.toContain('501234567');
    expect(JSON.parse(lines[0]!)).toEqual({
      at: expect.stringMatching(/^\d{4}-\d\d-\d\dT/),
      callbackId: requestId,
      origin: ORIGIN,
      consented: true,
      textSha256: createHash('sha256').update(TEXT).digest('hex'),
      privacyUrl: 'https://shop.example/privacy',
      numberHmac: createHmac('sha256', SECRET).update('+380501234567').digest('hex'),
    });
    rmSync(dir, { recursive: true, force: true });
  });

  it('writes no record for a refused request', async () => {
    system = await startSystem({ ALLOWED_ORIGINS: ORIGIN, REQUIRE_CONSENT: 'true' });
    expect((await postCallback(system!, { phone: '050 123 45 67', consent: false })).status).toBe(400);
    system.sim.faults.set('callback', { kind: 'rpc_error' });
    expect((await postCallback(system!, { phone: '050 123 45 67', consent: true, consentText: TEXT })).status).toBe(502);
    expect(system.relay.app.consent.recent()).toHaveLength(0);
    // The same relay does record an accepted one: the empty list above is not an empty log.
    system.sim.faults.clear();
    const accepted = await postCallback(system!, { phone: '050 765 43 21', consent: true, consentText: TEXT });
    expect(accepted.status).toBe(202);
    const { requestId } = accepted.json;
    expect(system.relay.app.consent.recent().map((r) => r.callbackId)).toEqual([requestId]);
  });
});

describe('privacyUrl', () => {
  it('takes an absolute http(s) URL and refuses anything else with 400 invalid_request at privacyUrl, before the service is asked', async () => {
    system = await startSystem({ ALLOWED_ORIGINS: ORIGIN });
    const agreed = { phone: '050 123 45 67', consent: true, consentText: TEXT };
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
      const res = await post({ ...agreed, privacyUrl: bad });
      const body = (await res.json()) as { error: { code: string; field?: string } };
      expect({ bad, status: res.status, code: body.error.code, field: body.error.field }).toEqual({ bad, status: 400, code: 'invalid_request', field: 'privacyUrl' });
    }
    expect(system.sim.requests.filter((r) => r.path === '/a/v2')).toHaveLength(0);
    expect((await post({ ...agreed, privacyUrl: 'http://shop.example/legal/privacy?lang=uk#calls' })).status).toBe(202);
  });
});
