// The assembled embedded store and its settings: every store over one file, closed cleanly and
// reopened with its data; DATA_DIR and DATA_RETENTION_DAYS read like every other setting.
import { describe, expect, it } from 'vitest';
import { openEmbeddedStore } from '../../../server/src/app/sqlite-stores.ts';
import { envReader } from '../../../server/src/config/env.ts';
import { readStore } from '../../../server/src/config/store.ts';
import { jobFor, leadEventFor, T0 } from '../../support/store-scenarios.ts';
import { tempDataDir } from '../../support/crash.ts';

const options = (dataDir: string) => ({
  dataDir,
  hashSecret: 'a-test-hash-secret-0123456789',
  retentionDays: 30,
  limiterMaxKeys: 1000,
  idempotency: { ttlSec: 3600, maxKeys: 100 },
  now: () => T0,
});

describe('the embedded store', () => {
  it('opens every store over one file, and reopens with everything it held', async () => {
    const dir = tempDataDir();
    const a = openEmbeddedStore(options(dir));
    const check = { table: 'number', key: 'ab'.repeat(16), counts: [{ reason: 'number_cooldown' as const, limit: 1, windowSec: 120 }] };
    expect((await a.limits.consume([check], T0)).ok).toBe(true);
    const begun = await a.idempotency.begin('https://shop.example', 'k', 'fp');
    if (begun.kind === 'new') await begun.ticket.complete({ status: 202, body: { ok: true } });
    await a.jobs.add(jobFor('cb-1', '1', T0 + 60_000), T0);
    await a.consent.record({ at: new Date(T0), callbackId: 'r', origin: 'https://shop.example', text: 'ok', e164: '+380501234567' });
    const event = await leadEventFor('cb-1', T0);
    await a.outbox.enqueue(event, T0);
    await a.close();

    const b = openEmbeddedStore(options(dir));
    expect((await b.limits.peek(check, T0 + 1000)).map((r) => r.reason)).toEqual(['number_cooldown']);
    expect((await b.idempotency.begin('https://shop.example', 'k', 'fp')).kind).toBe('replay');
    expect((await b.jobs.listPending(10)).map((j) => j.callbackId)).toEqual(['cb-1']);
    expect(b.consent.recent().map((r) => r.callbackId)).toEqual(['r']);
    expect(await b.outbox.get(event.id)).toMatchObject({ state: 'pending' });
    await b.close();
  });

  it('reads DATA_DIR and DATA_RETENTION_DAYS with defaults and bounds', () => {
    const read = (vars: Record<string, string>) => readStore(envReader(vars));
    expect(read({})).toEqual({ dataDir: './data', retentionDays: 30 });
    expect(read({ DATA_DIR: '/var/lib/dialback', DATA_RETENTION_DAYS: '90' })).toEqual({ dataDir: '/var/lib/dialback', retentionDays: 90 });
    for (const bad of ['0', '-1', '1.5', 'thirty', '3651']) {
      expect(() => read({ DATA_RETENTION_DAYS: bad })).toThrow(`DATA_RETENTION_DAYS: expected a whole number from 1 to 3650 days, got "${bad}"`);
    }
  });
});
