// A visitor's data erased on request leaves no copy, on every store (memory, the embedded SQLite
// file, Redis): with CONSENT_LOG_PATH the number's records leave the file and the relay's memory
// (GET lists none afterwards), the lead report's visitor values that mention the number in any
// written form become "(erased)" with their counts kept, the Idempotency-Key answers of its
// requests are forgotten, and so is what the relay remembers of its calls in memory.
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { AppContext } from '../../../server/src/app/app-context.ts';
import { numberHmac } from '../../../server/src/phone/number-hash.ts';
import { createLogger } from '../../../server/src/log/index.ts';
import type { Erasure, NumberData } from '../../../server/src/number-data/number-data.ts';
import { ERASED_VALUE } from '../../../server/src/report/erase-values.ts';
import { callsSettled, until } from '../../support/held-calls.ts';
import { ORIGIN, postCallback } from '../../support/post-callback.ts';
import { redisContents } from '../../support/redis-contents.ts';
import { redisRelaysPerTest } from '../../support/redis-relays.ts';
import { redisForTests } from '../../support/redis-test-connection.ts';
import { QUICK_CALLS, startSystem, type System } from '../../support/system.ts';
import { tempDir } from '../../support/temp-dirs.ts';

const ERASED = '+380501234599';
const OTHER = '+380671112233';
const SECRET = 'erase-every-copy-hash-secret-0123456789';
const TOKEN = 'erase-every-copy-owner-token-9f3b2c7d1e8a4b6c';
const HASH = numberHmac(SECRET, ERASED);
/** The number as the file or Redis could hold it, and values a visitor typed it into. */
const FORMS = ['+380501234599', '380501234599', '0501234599', '050 123 45 99', '501234599', 'sofa 050-123-45-99', '(050) 123 45 99'];

const redis = redisForTests();
const startRedisRelay = redisRelaysPerTest();
let system: System | undefined;
afterEach(async () => {
  await system?.close();
  system = undefined;
});

interface Relay {
  url: string;
  app: AppContext;
  /** Every byte the store keeps, as text (DATA_DIR's files or every Redis key and value). */
  stored(): Promise<string>;
}

async function startRelay(kind: 'memory' | 'embedded' | 'redis', consentFile: string): Promise<Relay> {
  const env = {
    ALLOWED_ORIGINS: ORIGIN,
    HASH_SECRET: SECRET,
    OWNER_TOKEN: TOKEN,
    REQUIRE_CONSENT: 'true',
    CONSENT_LOG_PATH: consentFile,
    LIMIT_NUMBER_COOLDOWN_SECONDS: '0',
    LIMIT_NUMBER_DAILY: '10',
    LIMIT_NUMBER_IN_FLIGHT: '10',
    LIMIT_CLIENT_RATE: '50',
    LIMIT_CLIENT_DAILY: '50',
    LIMIT_CLIENT_NUMBERS_DAILY: '32',
  };
  const s = (system = await startSystem(env, { simulator: { timing: QUICK_CALLS }, store: kind === 'embedded' ? 'embedded' : 'memory' }));
  if (kind !== 'redis') {
    const dir = s.config.store.dataDir;
    return {
      url: s.relayUrl,
      app: s.relay.app,
      stored: async () =>
        readdirSync(dir)
          .map((name) => readFileSync(join(dir, name), 'latin1'))
          .join('\n'),
    };
  }
  const prefix = `erase${Date.now()}:`;
  const config = { ...s.config, redis: { ...redis.target, prefix, commandTimeoutMs: 2_000, connectTimeoutMs: 3_000 } };
  const r = await startRedisRelay(config, { log: createLogger({ level: 'warn', write: () => {} }) });
  return { url: r.url, app: r.relay.app, stored: async () => (await redisContents(redis.nodeUrls, prefix)).join('\n') };
}

const owner = (r: Relay, path: string, method = 'GET') => fetch(`${r.url}${path}`, { method, headers: { 'x-owner-token': TOKEN } });
const numberPath = `/owner/api/numbers/${encodeURIComponent(ERASED)}`;
const opened = (r: Relay, body: Record<string, string>) =>
  fetch(`${r.url}/api/opened`, { method: 'POST', headers: { 'content-type': 'text/plain', origin: ORIGIN }, body: JSON.stringify(body) });
const consentLines = (file: string) => readFileSync(file, 'utf8').trim().split('\n').filter(Boolean);

describe.each(['memory', 'embedded', 'redis'] as const)('erasure covers every copy (%s store)', (kind) => {
  it('the consent file and memory, the report values naming the number, the stored answers, the calls remembered', async () => {
    const consentFile = join(tempDir('consent'), 'consent.jsonl');
    const r = await startRelay(kind, consentFile);
    const agreed = { consent: true, consentText: 'Call me back.' };
    const placed: string[] = [];
    const first = await postCallback(
      r,
      { phone: ERASED, ...agreed, attribution: { utmSource: 'google', utmCampaign: 'sofa 050-123-45-99' }, pageUrl: `${ORIGIN}/call/380501234599` },
      { idempotencyKey: 'erase-every-copy-1' },
    );
    expect(first.status, first.text).toBe(202);
    placed.push(first.json.requestId!);
    for (const utmSource of ['newsletter', '(050) 123 45 99']) {
      // The service rings a number once at a time.
      await callsSettled(system!, ERASED);
      const res = await postCallback(r, { phone: '050 123 45 99', ...agreed, attribution: { utmSource } });
      expect(res.status, res.text).toBe(202);
      placed.push(res.json.requestId!);
    }
    const booked = await postCallback(r, { phone: ERASED, ...agreed, scheduledFor: new Date(Date.now() + 3_600_000).toISOString() });
    expect(booked.json.status).toBe('scheduled');
    const other = await postCallback(r, { phone: OTHER, ...agreed, attribution: { utmSource: 'newsletter' } });
    expect(other.status).toBe(202);
    expect((await opened(r, { utmSource: 'tg +38 050 123 45 99', page: '/' })).status).toBe(204);
    expect((await opened(r, { utmSource: 'newsletter', page: '/' })).status).toBe(204);
    await callsSettled(system!, ERASED);
    // The widget asks what became of its call: the relay then follows it, with the call log's rows.
    expect((await fetch(`${r.url}/api/callback/${placed[2]}`, { headers: { origin: ORIGIN } })).status).toBe(200);
    expect((await owner(r, '/owner/api/calls')).status).toBe(200);

    const shown = (await (await owner(r, numberPath)).json()) as NumberData;
    expect(shown.consent.map((c) => c.callbackId).sort()).toEqual([...placed, booked.json.requestId!].sort());
    expect(shown.report.leads.map((l) => [l.callbackId, l.values]).sort()).toEqual(
      [
        [placed[0], { campaign: 'sofa 050-123-45-99', page: '/call/380501234599' }],
        [placed[2], { source: '(050) 123 45 99' }],
      ].sort(),
    );
    expect(shown.report.opens).toEqual([expect.objectContaining({ count: 1, values: { source: 'tg +38 050 123 45 99' } })]);
    expect(consentLines(consentFile)).toHaveLength(5);
    expect(r.app.consent.recent().filter((c) => c.numberHmac === HASH)).toHaveLength(4);
    expect(r.app.accepted.hasNumber('380501234599')).toBe(true);
    expect(await r.app.idempotency.has(ORIGIN, 'erase-every-copy-1')).toBe(true);
    const before = await r.stored();
    if (kind !== 'memory') expect(FORMS.filter((form) => before.includes(form))).not.toEqual([]);

    const res = await owner(r, numberPath, 'DELETE');
    expect(res.status).toBe(200);
    const erasure = (await res.json()) as Erasure;
    expect(erasure.erased).toMatchObject({ consentFile: 4, answers: 1, report: { leads: 2, opens: 1 } });
    expect(erasure.erased.memory).toMatchObject({ 'consent records': 4, 'placed calls': 3, 'followed calls': 3, 'owner call log': 0 });
    expect(erasure.erased.memory['call log rows']).toBeGreaterThan(0);
    expect(erasure.erased.memory['parsed numbers']).toBeGreaterThan(0);
    expect(erasure.erased.memory['limit keys']).toBeGreaterThan(0);

    const after = (await (await owner(r, numberPath)).json()) as NumberData;
    expect(after).toMatchObject({ calls: [], consent: [], outbox: [], callBack: [], report: { leads: [], opens: [], more: false } });
    // The file keeps the other visitor's record only; the relay's memory none of the number's.
    expect(consentLines(consentFile).map((line) => JSON.parse(line).callbackId)).toEqual([other.json.requestId]);
    expect(r.app.consent.recent().filter((c) => c.numberHmac === HASH)).toEqual([]);
    expect(r.app.accepted.hasNumber('380501234599')).toBe(false);
    for (const id of placed) expect(r.app.accepted.get(id)).toBeUndefined();
    expect(await r.app.idempotency.has(ORIGIN, 'erase-every-copy-1')).toBe(false);
    for (const id of placed) expect((await fetch(`${r.url}/api/callback/${id}`, { headers: { origin: ORIGIN } })).status).toBe(404);
    // The report still counts every lead and open; the values that named the number read "(erased)".
    const leads = await r.app.stores.report.leads(0, Date.now() + 60_000);
    expect(leads).toHaveLength(5);
    expect(leads.find((l) => l.callbackId === placed[0])).toMatchObject({ source: 'google', campaign: ERASED_VALUE, page: ERASED_VALUE });
    expect(leads.find((l) => l.callbackId === placed[2])).toMatchObject({ source: ERASED_VALUE });
    const day = (ms: number) => new Date(ms).toISOString().slice(0, 10);
    const opens = await r.app.stores.report.opens(day(Date.now() - 86_400_000), day(Date.now() + 86_400_000));
    expect(opens.map((o) => [o.source, o.count]).sort()).toEqual([
      [ERASED_VALUE, 1],
      ['newsletter', 1],
    ]);
    const text = await r.stored();
    expect(FORMS.filter((form) => text.includes(form))).toEqual([]);
  });
});

describe('erasure on one of two relays sharing Redis', () => {
  it('the other relay forgets the number too: its own consent file and what it holds in memory', async () => {
    const dir = tempDir('consent');
    const s = (system = await startSystem({ ALLOWED_ORIGINS: ORIGIN, HASH_SECRET: SECRET, OWNER_TOKEN: TOKEN }, { simulator: { timing: QUICK_CALLS }, store: 'memory' }));
    const prefix = `erase-two${Date.now()}:`;
    const relayWith = async (consentFile: string): Promise<Relay> => {
      const config = { ...s.config, consent: { ...s.config.consent, logPath: consentFile }, redis: { ...redis.target, prefix, commandTimeoutMs: 2_000, connectTimeoutMs: 3_000 } };
      const r = await startRedisRelay(config, { log: createLogger({ level: 'warn', write: () => {} }) });
      r.relay.app.erasureNotices!.start();
      return { url: r.url, app: r.relay.app, stored: async () => (await redisContents(redis.nodeUrls, prefix)).join('\n') };
    };
    const a = await relayWith(join(dir, 'a.jsonl'));
    const b = await relayWith(join(dir, 'b.jsonl'));
    const placed = await postCallback(a, { phone: ERASED, consent: true, consentText: 'Call me.' });
    expect(placed.status, placed.text).toBe(202);
    await postCallback(a, { phone: OTHER, consent: true, consentText: 'Call me.' });
    await callsSettled(system!, ERASED);
    expect(consentLines(join(dir, 'a.jsonl'))).toHaveLength(2);
    expect(a.app.accepted.get(placed.json.requestId!)).toBeDefined();

    const erased = (await (await owner(b, numberPath, 'DELETE')).json()) as Erasure;
    expect(erased).toMatchObject({ otherRelaysTold: true, erased: { consentFile: 0 } });
    await until(() => a.app.accepted.get(placed.json.requestId!) === undefined || undefined, 'relay a to forget the call it placed');
    await until(() => consentLines(join(dir, 'a.jsonl')).length === 1 || undefined, 'relay a to erase the record from its consent file');
    expect(consentLines(join(dir, 'a.jsonl')).map((line) => JSON.parse(line).numberHmac)).toEqual([numberHmac(SECRET, OTHER)]);
    expect(a.app.consent.recent().filter((c) => c.numberHmac === HASH)).toEqual([]);
    const stored = await a.stored();
    expect(FORMS.filter((form) => stored.includes(form))).toEqual([]);
  });
});
