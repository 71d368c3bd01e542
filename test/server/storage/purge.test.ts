// Privacy at rest: a full number stays only while a call may be placed or a webhook delivered, and
// then is gone from the file itself (WAL included); records are deleted DATA_RETENTION_DAYS after
// they were finished; pending work is never touched.
import { NO_PROGRESS } from '../../../server/src/callback/job-store.ts';
import { describe, expect, it } from 'vitest';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { DATABASE_FILE, openDatabase } from '../../../server/src/storage/sqlite/database.ts';
import { createSqliteCallbackJobStore } from '../../../server/src/callback/stores/sqlite-job-store.ts';
import { createSqliteWebhookOutbox } from '../../../server/src/webhooks/sqlite-outbox.ts';
import { createSqliteConsentLog } from '../../../server/src/consent/sqlite-consent-log.ts';
import { createPurge } from '../../../server/src/storage/sqlite/purge.ts';
import { jobFor, leadEventFor, T0 } from '../../support/store-scenarios.ts';
import { tempDataDir } from '../../support/crash.ts';

const DAY = 86_400_000;

/** Whether the database file or its WAL holds these bytes anywhere. */
function fileHolds(dir: string, text: string): boolean {
  return ['', '-wal'].some((suffix) => {
    const path = join(dir, DATABASE_FILE + suffix);
    return existsSync(path) && readFileSync(path).includes(Buffer.from(text));
  });
}

async function setUp() {
  const dir = tempDataDir();
  const db = openDatabase({ dataDir: dir });
  const jobs = createSqliteCallbackJobStore({ db });
  const outbox = createSqliteWebhookOutbox({ db });
  return { dir, db, jobs, outbox, purge: createPurge({ db, retentionDays: 30 }) };
}

describe('privacy at rest', () => {
  it('empties the number of a finished job and of a finished webhook, keeping hash and masked form; pending ones keep it', async () => {
    const { dir, jobs, outbox, purge } = await setUp();
    // Digits 1–3: jobs done three ways; 4: still pending. Events: delivered, given up, pending.
    for (const n of ['1', '2', '3', '4']) await jobs.add(jobFor(`cb-${n}`, `${n}${n}${n}${n}${n}${n}${n}`, T0, 'queued'), T0);
    await jobs.claimDue('relay', T0, 30_000, 3);
    await jobs.advance('cb-1', 'relay', 'queued', { stage: 'ended', outcome: 'placed' }, T0 + 1);
    await jobs.advance('cb-2', 'relay', 'queued', { stage: 'failed', outcome: 'upstream_rejected' }, T0 + 1);
    await jobs.advance('cb-3', 'relay', 'queued', { stage: 'queued', dueAt: T0 + 60_000, progress: { ...NO_PROGRESS, queuedAt: T0 } }, T0 + 1);
    expect(await jobs.cancel('cb-3', 'token-cb-3', T0 + 2)).toBe('cancelled');
    const events = [await leadEventFor('ev-1', T0), await leadEventFor('ev-2', T0), await leadEventFor('ev-3', T0)];
    for (const e of events) await outbox.enqueue(e, T0);
    await outbox.claimDue('relay', T0, 30_000, 2);
    await outbox.delivered(events[0]!.id, 'relay', T0 + 1);
    await outbox.giveUp(events[1]!.id, 'relay', 'HTTP 500', T0 + 1);
    expect(fileHolds(dir, '+380501111111')).toBe(true);

    expect(purge.run(T0 + 10)).toEqual({ jobNumbers: 3, webhookBodies: 2, deleted: 0 });
    for (const n of ['1', '2', '3']) {
      const job = (await jobs.get(`cb-${n}`))!;
      expect(job.request).toMatchObject({ e164: null, clientIp: null, userAgent: null, origin: 'https://shop.example', attribution: { utmSource: 'google' } });
      expect(job.numberHash).toMatch(/^[0-9a-f]{64}$/);
      expect(job.maskedNumber).toBe(`+380 50 *** **${n}${n}`);
      expect(fileHolds(dir, `38050${n.repeat(7)}`)).toBe(false);
    }
    expect((await jobs.get('cb-4'))!.request).toMatchObject({ e164: '+380504444444', clientIp: '203.0.113.9', userAgent: 'Mozilla/5.0' });
    expect((await outbox.get(events[0]!.id))!.body).toBeNull();
    expect((await outbox.get(events[1]!.id))!).toMatchObject({ body: null, maskedNumber: '+380 50 *** **07' });
    expect((await outbox.get(events[2]!.id))!.body).toContain('+380500000007');
    // Nothing left to do: the next run changes nothing.
    expect(purge.run(T0 + 20)).toEqual({ jobNumbers: 0, webhookBodies: 0, deleted: 0 });
  });

  it('deletes finished records and consent older than DATA_RETENTION_DAYS, never pending work', async () => {
    const { db, jobs, outbox, purge } = await setUp();
    const consent = createSqliteConsentLog({ db, hashSecret: 'a-test-hash-secret-0123456789' });
    await jobs.add(jobFor('old-done', '1', T0, 'queued'), T0);
    await jobs.add(jobFor('old-pending', '2', T0 + 90 * DAY), T0);
    await jobs.claimDue('relay', T0, 30_000, 1);
    await jobs.advance('old-done', 'relay', 'queued', { stage: 'ended', outcome: 'placed' }, T0);
    const old = await leadEventFor('ev-old', T0);
    const pending = await leadEventFor('ev-pending', T0);
    await outbox.enqueue(old, T0);
    await outbox.claimDue('relay', T0, 30_000, 1);
    await outbox.delivered(old.id, 'relay', T0);
    await outbox.enqueue(pending, T0);
    await consent.record({ at: new Date(T0), callbackId: 'r-old', origin: 'https://shop.example', text: 'ok', e164: '+380501234567' });
    await consent.record({ at: new Date(T0 + 20 * DAY), callbackId: 'r-new', origin: 'https://shop.example', text: 'ok', e164: '+380501234567' });

    expect(purge.run(T0 + 30 * DAY)).toMatchObject({ deleted: 0 });
    expect(await jobs.get('old-done')).toBeDefined();
    expect(purge.run(T0 + 30 * DAY + 1)).toMatchObject({ deleted: 3 });
    expect(await jobs.get('old-done')).toBeUndefined();
    expect(await outbox.get(old.id)).toBeUndefined();
    expect(
      db
        .prepare('SELECT callback_id FROM consent')
        .all()
        .map((r) => r.callback_id),
    ).toEqual(['r-new']);
    expect(await jobs.get('old-pending')).toMatchObject({ state: 'pending', request: { e164: '+380500000002' } });
    expect(await outbox.get(pending.id)).toMatchObject({ state: 'pending' });
  });
});
