// Consent records of a relay on Redis (REDIS_URL), over real sockets: the record is the same as in
// the embedded store, kept in Redis before the service is asked; and with REQUIRE_CONSENT, a relay
// whose Redis user may read but not write consent keys (an ACL, everything else allowed) places no
// call until it may.
import { ORIGIN, postCallback } from '../../support/post-callback.ts';
import { afterEach, describe, expect, it } from 'vitest';
import { createHash, createHmac } from 'node:crypto';
import type { Config } from '../../../server/src/config/index.ts';
import { createLogger } from '../../../server/src/log/index.ts';
import { redisRelaysPerTest } from '../../support/redis-relays.ts';
import { redisForTests } from '../../support/redis-test-connection.ts';
import { callbackCalls, errorOf, QUICK_CALLS, startSystem, type System } from '../../support/system.ts';

const redis = redisForTests();

const TEXT = 'I agree to be called back about my order.';
const PRIVACY = 'https://shop.example/privacy';
const SECRET = 'consent-redis-secret-0123456789';
const PREFIX = 'consent-relay:';
const USER = 'consent-relay';
const PASSWORD = 'consent-relay-password';

const startRedisRelay = redisRelaysPerTest();
let system: System | undefined;
afterEach(async () => {
  await system?.close();
  system = undefined;
});

/** The admin's view of the test server (the file's own connection). */
const admin = () => redis.fresh().client;

/**
 * The relay's Redis user: every command on its keys, but the consent keyspace read-only unless
 * `consentWritable`. Every other keyspace of the prefix starts with a letter other than c.
 */
async function relayUser(consentWritable: boolean): Promise<void> {
  const consent = `${PREFIX}{${PREFIX}consent}:*`;
  await admin().sendCommand([
    'ACL',
    'SETUSER',
    USER,
    'reset',
    'on',
    `>${PASSWORD}`,
    '+@all',
    'allchannels',
    `~${PREFIX}{${PREFIX}[^c]*`,
    consentWritable ? `~${consent}` : `%R~${consent}`,
  ]);
}

/** A relay in this process on Redis as the relay user, with the system's simulator as its service. */
async function startOnRedis(s: System, lines: Array<Record<string, unknown>>): Promise<string> {
  const url = new URL(redis.server.url);
  url.username = USER;
  url.password = PASSWORD;
  const config: Config = {
    ...s.config,
    hash: { ...s.config.hash, secret: SECRET },
    consent: { ...s.config.consent, required: true },
    redis: { url: url.toString(), prefix: PREFIX, commandTimeoutMs: 2_000, connectTimeoutMs: 3_000 },
  };
  const log = createLogger({ level: 'info', write: (line) => void lines.push(JSON.parse(line) as Record<string, unknown>) });
  return (await startRedisRelay(config, { log })).url;
}

describe('consent records on Redis', () => {
  it('with REQUIRE_CONSENT: no call while the consent keys cannot be written (503, Retry-After, limits given back); then the record, before the call', async () => {
    await relayUser(false);
    const s = (system = await startSystem({ ALLOWED_ORIGINS: ORIGIN }, { simulator: { timing: QUICK_CALLS } }));
    const lines: Array<Record<string, unknown>> = [];
    const url = await startOnRedis(s, lines);
    const body = { phone: '050 123 45 67', consent: true, consentText: TEXT, privacyUrl: PRIVACY };

    expect(await errorOf(await postCallback(url, body))).toEqual({ status: 503, code: 'temporarily_unavailable', retryAfter: 10, bodyRetryAfter: 10 });
    expect(callbackCalls(s)).toHaveLength(0);
    expect(lines.filter((l) => l.level === 'error' && String(l.msg).startsWith('consent record not written'))).toHaveLength(1);
    expect(JSON.stringify(lines)).not.toContain('501234567');

    // Writable again: the same number is admitted at once (its cooldown was given back), and its
    // record is in Redis by the time the service hears of the call.
    await relayUser(true);
    s.sim.faults.set('callback', { kind: 'delay', ms: 1_500, times: 1 });
    const answer = postCallback(url, body);
    for (let i = 0; i < 500 && callbackCalls(s).length === 0; i++) await new Promise((r) => setTimeout(r, 10));
    expect(callbackCalls(s)).toHaveLength(1);
    const client = admin();
    const keys = await client.keys(`${PREFIX}{${PREFIX}consent}:*`);
    expect(keys).toHaveLength(1);
    const record = JSON.parse((await client.get(keys[0]!))!);
    expect(Date.parse(record.at)).toBeLessThanOrEqual(callbackCalls(s)[0]!.at.getTime());

    const res = await answer;
    expect(res.status).toBe(202);
    const { requestId } = res.json as { requestId: string };
    expect(keys[0]).toBe(`${PREFIX}{${PREFIX}consent}:${requestId}`);
    expect(record).toEqual({
      at: expect.stringMatching(/^\d{4}-\d\d-\d\dT/),
      callbackId: requestId,
      origin: ORIGIN,
      consented: true,
      textSha256: createHash('sha256').update(TEXT).digest('hex'),
      privacyUrl: PRIVACY,
      numberHmac: createHmac('sha256', SECRET).update('+380501234567').digest('hex'),
    });
  });
});
