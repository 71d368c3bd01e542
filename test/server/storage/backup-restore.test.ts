// `npm run store -- backup|restore`, as an operator runs it. A relay process takes bookings (each a
// held call and a lead event its CRM has not got yet: the CRM is down) while the backup command
// copies its store; the relay gets SIGKILL as the copy starts. The backup restored over the dead
// relay's DATA_DIR, a relay on it places every booked call of the backup exactly once when due, and
// delivers each of its lead events exactly once. Then the refusals: no store, a newer schema, a
// file that is not a store, a store another process has open, usage mistakes.
import { spawn } from 'node:child_process';
import { copyFileSync, existsSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { DatabaseSync } from 'node:sqlite';
import { afterEach, describe, expect, it } from 'vitest';
import { loadConfig } from '../../../server/src/config/index.ts';
import { createLogger } from '../../../server/src/log/index.ts';
import { createRelay } from '../../../server/src/relay.ts';
import { openEmbeddedStores } from '../../../server/src/app/relay-stores.ts';
import { CREATE_OPEN_SUMS_TRIGGERS, DROP_OPEN_SUMS_TRIGGERS, FILL_OPEN_SUMS } from '../../../server/src/storage/sqlite/schema/step-9.ts';
import { openDatabase, transaction } from '../../../server/src/storage/sqlite/database.ts';
import { startSimulator } from '../../../server/simulator/index.ts';
import { tempDataDir } from '../../support/crash.ts';
import { HASH_SECRET, manualTimers, SECRET, startCrm, testClock, until } from '../../support/held-calls.ts';
import { deadUrl } from '../../support/listen.ts';
import { postCallback } from '../../support/post-callback.ts';
import { relayEnv, startRelay, type RelayProcess } from '../../support/relay-processes.ts';
import { storeCommand } from '../../support/store-move.ts';
import { QUICK_CALLS } from '../../support/system.ts';

const DAY_MS = 86_400_000;
const cleanup: Array<() => Promise<void> | void> = [];
afterEach(async () => {
  for (const fn of cleanup.splice(0).reverse()) await fn();
});

const store = storeCommand;

/** A store of some size (~20 MB of today's open counts), so the copy takes a while and the kill lands in it. */
function seedOpens(dataDir: string, rows: number): void {
  const db = openDatabase({ dataDir });
  const day = new Date().toISOString().slice(0, 10);
  const insert = db.prepare("INSERT INTO dialog_opens (day, source, medium, campaign, department, page, count) VALUES (?, ?, 'cpc', 'winter-sale', '', '/catalog/sofas', 1)");
  // Loaded in bulk, as schema/step-9.ts allows: the sums are made once, not kept row by row.
  db.exec(DROP_OPEN_SUMS_TRIGGERS);
  transaction(db, () => {
    for (let i = 0; i < rows; i++) insert.run(day, `seed-source-${i}`);
    db.exec(`${FILL_OPEN_SUMS}\n${CREATE_OPEN_SUMS_TRIGGERS}`);
  });
  db.close();
}

const phoneOf = (i: number) => `+38050${String(2_000_000 + i).padStart(7, '0')}`;

describe('backup and restore of the embedded store', () => {
  it('a backup taken under load, its relay killed with SIGKILL meanwhile, restores to a store that places each booked call once and delivers each event once', async () => {
    const sim = await startSimulator({ port: 0, host: '127.0.0.1', timing: QUICK_CALLS });
    cleanup.push(() => sim.close());
    const dataDir = tempDataDir();
    const env = {
      ...relayEnv(sim, { DATA_DIR: dataDir }),
      LEAD_WEBHOOK_URL: await deadUrl(), // the CRM is down: every event waits in the outbox
      LEAD_WEBHOOK_SECRET: SECRET,
      // Many bookings from one test: the limits would rightly stop such a flood.
      LIMIT_PREFIX_RATE: '65000',
      SITE_HOURLY_CAP: '65000',
      SITE_DAILY_CAP: '65000',
    };
    seedOpens(dataDir, 200_000);
    const relay: RelayProcess = await startRelay(env);
    cleanup.push(() => relay.kill());
    const scheduledFor = new Date(Math.ceil((Date.now() + DAY_MS) / 60_000) * 60_000).toISOString();
    const book = (i: number) =>
      postCallback(relay, { phone: phoneOf(i), consent: true, scheduledFor }, { forwardedFor: `198.51.${Math.floor(i / 200)}.${(i % 200) + 1}`, idempotencyKey: `backup-${i}` });

    const before = 40;
    for (let i = 0; i < before; i++) {
      const answer = await book(i);
      expect(answer.json.status, answer.text).toBe('scheduled');
    }
    // More bookings keep coming while the backup runs; the relay dies as the copy starts.
    let next = before;
    let loading = true;
    const load = (async () => {
      while (loading) await book(next++).catch(() => null);
    })();
    const file = join(tempDataDir(), 'dialback-backup.sqlite');
    let killed: Promise<void> | undefined;
    const backup = await store(['backup', file], env, (err) => {
      if (!killed && err.includes('copying the store')) killed = relay.kill('SIGKILL');
    });
    await killed;
    loading = false;
    await load;
    expect(backup.code, backup.err).toBe(0);
    expect(statSync(file).mode & 0o777).toBe(0o600);
    const summary = JSON.parse(backup.out) as { rows: Record<string, number> };
    expect(summary.rows.callback_jobs).toBeGreaterThanOrEqual(before);
    expect(backup.err).not.toContain('50200');

    // Restored over the dead relay's store (its -wal left as SIGKILL left it).
    const restore = await store(['restore', file], env);
    expect(restore.code, restore.err).toBe(0);
    const restored = JSON.parse(restore.out) as { rows: Record<string, number>; previous: string };
    expect(existsSync(restored.previous)).toBe(true);
    expect(restored.rows.callback_jobs).toBe(summary.rows.callback_jobs);

    // A relay on the restored store, on a clock past the bookings, its CRM up.
    const clock = testClock(new Date(Date.parse(scheduledFor) + 1_000));
    const crm = await startCrm(clock);
    cleanup.push(() => crm.close());
    const config = loadConfig({ ...env, PORT: '0', LEAD_WEBHOOK_URL: crm.url, LOG_LEVEL: 'silent' });
    const stores = openEmbeddedStores(config, () => clock.ms);
    const restarted = createRelay({ config, log: createLogger({ level: 'silent' }), stores, now: clock.now, runner: { timers: manualTimers(clock) } });
    cleanup.push(async () => {
      await restarted.close();
      await stores.close();
    });
    const booked = summary.rows.callback_jobs!;
    for (let round = 0; round < 20 && sim.calls.length < booked; round++) {
      await restarted.runner.runOnce();
      clock.advance(5_000);
    }
    const callers = sim.calls.map((c) => c.caller);
    expect(callers).toHaveLength(booked);
    expect(new Set(callers).size).toBe(booked);
    for (let i = 0; i < before; i++) expect(callers).toContain(phoneOf(i).slice(1));
    for (let i = 0; i < 3; i++) await restarted.runner.runOnce();
    expect(sim.calls).toHaveLength(booked);

    // Each event of the backup's outbox reaches the CRM once (and the placements' own events after).
    const scheduledEvents = summary.rows.webhook_outbox!;
    await restarted.app.delivery!.runOnce();
    await until(() => crm.events.filter((e) => e.type === 'callback.scheduled').length >= scheduledEvents, 'the scheduled events');
    for (let i = 0; i < 3; i++) await restarted.app.delivery!.runOnce();
    expect(new Set(crm.ids).size).toBe(crm.ids.length);
    expect(crm.events.filter((e) => e.type === 'callback.scheduled')).toHaveLength(scheduledEvents);
  });

  it('refuses what it cannot do, with a line that says why: exit 2 for usage, 1 for the store or the file', async () => {
    const dataDir = tempDataDir();
    const env = { DATA_DIR: dataDir, HASH_SECRET };
    const elsewhere = tempDataDir();

    expect(await store(['backup'], env)).toMatchObject({ code: 2, err: expect.stringContaining('usage: npm run store') });
    expect(await store(['copy', 'x'], env)).toMatchObject({ code: 2 });
    expect(await store(['backup', join(elsewhere, 'b.sqlite')], { ...env, REDIS_URL: 'redis://127.0.0.1:9' })).toMatchObject({
      code: 2,
      err: expect.stringContaining('REDIS_URL'),
    });
    expect(await store(['backup', join(elsewhere, 'b.sqlite')], env)).toMatchObject({ code: 1, err: expect.stringContaining('no store to back up') });

    // A store made by this relay's own code, backed up.
    const made = new DatabaseSync(join(dataDir, 'made.sqlite'));
    made.close();
    const config = loadConfig({ DATA_DIR: dataDir, HASH_SECRET, PORT: '0' }, { baseUrl: 'http://127.0.0.1:9', authKey: 'k', projectId: '1', caller: '380441112233' });
    await openEmbeddedStores(config).close();
    const good = join(elsewhere, 'good.sqlite');
    expect((await store(['backup', good], env)).code).toBe(0);

    const newer = join(elsewhere, 'newer.sqlite');
    copyFileSync(good, newer);
    const db = new DatabaseSync(newer);
    db.exec('PRAGMA user_version = 999');
    db.close();
    expect(await store(['restore', newer], env)).toMatchObject({ code: 1, err: expect.stringContaining('schema version 999, newer than this relay knows') });

    const notStore = join(elsewhere, 'other.sqlite');
    const other = new DatabaseSync(notStore);
    other.exec('CREATE TABLE t (x)');
    other.close();
    expect(await store(['restore', notStore], env)).toMatchObject({ code: 1, err: expect.stringContaining('not a Dialback store') });
    const garbage = join(elsewhere, 'garbage.sqlite');
    writeFileSync(garbage, 'not a database at all');
    expect((await store(['restore', garbage], env)).code).toBe(1);
    expect(await store(['restore', join(elsewhere, 'missing.sqlite')], env)).toMatchObject({ code: 1, err: expect.stringContaining('no backup file') });

    // A relay (here: another process's open connection) still on the store.
    const holder = spawn(
      process.execPath,
      [
        '-e',
        `const {DatabaseSync}=require('node:sqlite');const d=new DatabaseSync(${JSON.stringify(join(dataDir, 'dialback.sqlite'))});d.prepare('select 1').get();console.log('open');setInterval(()=>{},1000)`,
      ],
      { stdio: ['ignore', 'pipe', 'inherit'] },
    );
    cleanup.push(() => {
      holder.kill('SIGKILL');
    });
    await new Promise<void>((resolve) => holder.stdout.once('data', () => resolve()));
    expect(await store(['restore', good], env)).toMatchObject({ code: 1, err: expect.stringContaining('stop every relay') });
    holder.kill('SIGKILL');
    await new Promise((r) => holder.once('exit', r));
    const done = await store(['restore', good], env);
    expect(done.code, done.err).toBe(0);
  });
});
