// An embedded store holding every kind of record a move carries (`npm run store -- move`), made
// through the stores' own steps as the relay makes them: booked and held calls, a finished call,
// outbox events (pending and delivered), never-call entries, consent records, numbers kept for the
// owner's call-back, a year of report facts and dialog opens, the digest's leads and answered
// Idempotency-Keys. Also the command itself as an operator runs it, and the lead report's figures.
import { spawn } from 'node:child_process';
import { COMPILE_CACHE_ENV } from './child-processes.ts';
import { openEmbeddedStore } from '../../server/src/app/sqlite-stores.ts';
import { leadReport } from '../../server/src/report/lead-report.ts';
import { readPeriod } from '../../server/src/report/report-query.ts';
import { REPORT_DIMENSIONS, type ReportStore } from '../../server/src/report/report-store.ts';
import { HASH_SECRET, heldJobFor } from './held-job.ts';

export { HASH_SECRET };
const DAY_MS = 86_400_000;

export interface Seeded {
  /** The numbers of the pending calls (booked and held), each to be placed once. */
  pending: string[];
  callbackIds: string[];
  /** The call that ended (answered) a day ago: its number is kept for the owner's call-back. */
  finishedId: string;
}

export const seedPhone = (i: number) => `+38050${String(3_000_000 + i).padStart(7, '0')}`;

/**
 * `calls` pending calls due at `dueAt` (every fifth held after an outage, the rest booked), one
 * event and one consent record each; `facts` report facts over the last year.
 */
export async function seedEmbedded(dataDir: string, options: { calls: number; facts: number; dueAt: number; nowMs?: number }): Promise<Seeded> {
  const now = options.nowMs ?? Date.now();
  const store = openEmbeddedStore({ dataDir, hashSecret: HASH_SECRET, retentionDays: 30, limiterMaxKeys: 1000, idempotency: { ttlSec: 86_400, maxKeys: 100_000 }, now: () => now });
  const pending: string[] = [];
  const callbackIds: string[] = [];
  let finishedId = '';
  try {
    for (let i = 0; i < options.calls; i++) {
      const e164 = seedPhone(i);
      const job = heldJobFor(e164, i % 5 === 4 ? 'queued' : 'scheduled', options.dueAt);
      const added = await store.jobs.add(job, now - 60_000);
      if (!added.ok) throw new Error(`seed: ${added.reason}`);
      pending.push(e164);
      callbackIds.push(job.callbackId);
      await store.consent.record({ at: new Date(now - 60_000), callbackId: job.callbackId, origin: 'https://shop.example', consented: true, text: 'Call me back', e164 });
      const body = JSON.stringify({ type: 'callback.scheduled', callbackId: job.callbackId, phone: e164 });
      await store.outbox.enqueue(
        { id: `evt-${job.callbackId}`, type: 'callback.scheduled', callbackId: job.callbackId, numberHash: job.numberHash, maskedNumber: job.maskedNumber, body },
        now - 60_000,
      );
      await store.leadTally.record({ callbackId: job.callbackId, createdAt: now - 60_000, utmSource: 'google', outcome: 'pending' }, now);
    }
    // A call that ended (answered) yesterday, and its event delivered.
    const done = heldJobFor('+380671112233', 'queued', now - DAY_MS);
    finishedId = done.callbackId;
    await store.jobs.add(done, now - DAY_MS);
    const [claimed] = await store.jobs.claimDue('seed', now - DAY_MS, 60_000, 1);
    if (claimed?.callbackId !== done.callbackId) throw new Error('seed: the finished call was not claimed');
    await store.jobs.advance(done.callbackId, 'seed', 'queued', { stage: 'answered', outcome: 'answered' }, now - DAY_MS + 1_000);
    await store.outbox.enqueue(
      { id: 'evt-done', type: 'callback.answered', callbackId: done.callbackId, numberHash: done.numberHash, maskedNumber: done.maskedNumber, body: '{}' },
      now - DAY_MS,
    );
    const [event] = await store.outbox.claimDue('seed', now - DAY_MS, 60_000, 1);
    await store.outbox.delivered(event!.eventId, 'seed', now - DAY_MS + 1_000);
    await store.neverCall.add(done.numberHash, now - 2 * DAY_MS);
    await store.neverCall.add('f'.repeat(64), now - 3 * DAY_MS);
    await store.callBackNumbers.keep(done.callbackId, '+380671112233', done.numberHash, now + 3 * DAY_MS);
    for (const key of ['idem-1', 'idem-2']) {
      const begun = await store.idempotency.begin('https://shop.example', key, `fingerprint-${key}`);
      if (begun.kind === 'new') await begun.ticket.complete({ status: 202, body: { status: 'scheduled', requestId: key } });
    }
    await seedReport(store.report, options.facts, now, (facts) => {
      // A thousand facts per commit: a year of them is seeded in seconds.
      store.db.exec('BEGIN');
      return facts().then(() => store.db.exec('COMMIT'));
    });
  } finally {
    await store.close();
  }
  return { pending, callbackIds, finishedId };
}

const SOURCES = ['google', 'facebook', 'newsletter', '', 'bing'];
const OUTCOMES = ['answered', 'missed', 'failed', 'cancelled', null] as const;

/** `n` facts spread over the last 360 days, with opens on the same days; `inOne` runs a thousand facts' steps in one commit. */
async function seedReport(report: ReportStore, n: number, now: number, inOne: (facts: () => Promise<void>) => Promise<void>): Promise<void> {
  for (let first = 0; first < n; first += 1000) {
    await inOne(async () => {
      for (let i = first; i < Math.min(n, first + 1000); i++) await seedFact(report, i, now);
    });
    for (let i = first; i < Math.min(n, first + 1000); i += 2) await report.countOpen(new Date(factAt(i, now)).toISOString().slice(0, 10), groupOf(i), 'add');
  }
}

const factAt = (i: number, now: number) => now - Math.floor(((i * 7919) % 360) * DAY_MS + (i % 86_400) * 1000);
const groupOf = (i: number) => ({ source: SOURCES[i % 5]!, medium: i % 2 ? 'cpc' : 'organic', campaign: `c${i % 7}`, department: '', page: `/p${i % 11}` });

async function seedFact(report: ReportStore, i: number, now: number): Promise<void> {
  const at = factAt(i, now);
  const group = groupOf(i);
  const callbackId = `fact-${i}`;
  await report.addLead({ callbackId, at, requestedAs: i % 3 ? 'now' : 'scheduled', ...group });
  const outcome = OUTCOMES[i % 5]!;
  if (outcome !== 'failed' && outcome !== 'cancelled') await report.markPlaced(callbackId);
  if (outcome) await report.finish(callbackId, outcome, outcome === 'answered' ? { answerSeconds: 5 + (i % 40), talkSeconds: 30 + (i % 300) } : null);
}

/** The lead report of the last year by every dimension, as the owner view answers it. */
export async function reportFigures(report: ReportStore, nowMs = Date.now()) {
  const day = (ms: number) => new Date(ms).toISOString().slice(0, 10);
  const period = readPeriod(new URLSearchParams({ from: day(nowMs - 365 * DAY_MS), to: day(nowMs) }), 'UTC');
  const settings = { timeZone: 'UTC', talkSeconds: 10 };
  return Promise.all(REPORT_DIMENSIONS.map((by) => leadReport(report, period, by, settings)));
}

export interface StoreRun {
  code: number | null;
  out: string;
  err: string;
}

/**
 * `npm run store -- <args>` with `env` (the relay's environment), as an operator runs it; `onErr` sees
 * stderr as it comes. Its own REDIS_CHECK_MS stays 1 s unless `env` says otherwise: it watches the
 * write-check key 2.5 s for a running relay, which (every 100 ms, support/relay-processes.ts) writes it
 * many times meanwhile even on a loaded machine; watching 0.7 s once missed one there.
 */
export function storeCommand(args: string[], env: Record<string, string>, onErr: (text: string) => void = () => {}): Promise<StoreRun> {
  const child = spawn(process.execPath, ['server/src/store-admin/cli.ts', ...args], {
    env: { PATH: process.env.PATH, HOME: process.env.HOME, ...COMPILE_CACHE_ENV, ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  let err = '';
  child.stdout.on('data', (d) => (out += d));
  child.stderr.on('data', (d) => {
    err += d;
    onErr(err);
  });
  return new Promise((resolve) => child.once('exit', (code) => resolve({ code, out, err })));
}
