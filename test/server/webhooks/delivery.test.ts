// The lead webhook delivered from the durable outbox to a real receiver on 127.0.0.1, which checks
// every request with standardwebhooks' Webhook.verify. Time is a controllable clock (kept near the
// real time, since the verifier refuses timestamps more than 5 minutes off); nothing waits on timers.
import { describe, expect, it } from 'vitest';
import { randomBytes } from 'node:crypto';
import { createServer, type IncomingHttpHeaders } from 'node:http';
import { Webhook } from 'standardwebhooks';
import { listen } from '../../support/listen.ts';
import { openDatabase } from '../../../server/src/storage/sqlite/database.ts';
import { createSqliteWebhookOutbox } from '../../../server/src/webhooks/sqlite-outbox.ts';
import { backoffDelay } from '../../../server/src/lib/backoff.ts';
import { createWebhookDelivery, type DeliveryClock, type DeliveryReport } from '../../../server/src/webhooks/delivery.ts';
import { crashOutbox, leadEventFor, T0 } from '../../support/store-scenarios.ts';
import { runAndKill, tempDataDir } from '../../support/crash.ts';

const secret = `whsec_${randomBytes(32).toString('base64')}`;

interface Received {
  id: string;
  verified: boolean;
  body: unknown;
}

/** A receiver answering each request with the next status of `statuses` (the last one repeats). */
async function receiver(statuses: number[]) {
  const received: Received[] = [];
  const verifier = new Webhook(secret);
  const listening = await listen(
    createServer((req, res) => {
      let raw = '';
      req.on('data', (c: Buffer) => (raw += c.toString()));
      req.on('end', () => {
        let verified = false;
        try {
          verifier.verify(raw, req.headers as IncomingHttpHeaders as Record<string, string>);
          verified = true;
        } catch {}
        received.push({ id: String(req.headers['webhook-id']), verified, body: JSON.parse(raw) });
        res.statusCode = statuses[Math.min(received.length - 1, statuses.length - 1)]!;
        res.end();
      });
    }),
  );
  return { received, url: `${listening.url}/hooks/lead`, close: listening.close };
}

function fakeClock(start: number): DeliveryClock & { t: number } {
  const clock = { t: start, now: () => clock.t, setTimeout: () => 0, clearTimeout: () => {} };
  return clock;
}

describe('lead webhook delivery', () => {
  it('delivers each event once, signed, verified by the reference implementation', async () => {
    const rx = await receiver([204]);
    const outbox = createSqliteWebhookOutbox({ db: openDatabase({ dataDir: tempDataDir() }) });
    const now = Date.now();
    const events = [await leadEventFor('cb-1', now), await leadEventFor('cb-2', now, 'callback.missed')];
    for (const e of events) expect(await outbox.enqueue(e, now)).toBe(true);
    // The same event again (a repeated step): kept once.
    expect(await outbox.enqueue(events[0]!, now)).toBe(false);
    const clock = fakeClock(now);
    const worker = createWebhookDelivery({ outbox, settings: { url: rx.url, secret }, owner: 'relay-a', clock });
    expect(await worker.runOnce()).toBe(2);
    expect(await worker.runOnce()).toBe(0);
    expect(rx.received.map((r) => [r.id, r.verified]).sort()).toEqual(events.map((e) => [e.id, true]).sort());
    expect(rx.received.find((r) => r.id === events[0]!.id)!.body).toMatchObject({
      type: 'callback.placed',
      data: { callbackId: 'cb-1', phone: '+380500000007', phoneMasked: '+380 50 *** **07' },
    });
    expect(await outbox.get(events[0]!.id)).toMatchObject({ state: 'delivered', attempts: 1, finishedAt: now });
    await rx.close();
  });

  it('retries a failing receiver with backoff and the same webhook-id, until exactly one delivery succeeds', async () => {
    const rx = await receiver([500, 503, 200]);
    const outbox = createSqliteWebhookOutbox({ db: openDatabase({ dataDir: tempDataDir() }) });
    const start = Date.now();
    const event = await leadEventFor('cb-1', start);
    await outbox.enqueue(event, start);
    const clock = fakeClock(start);
    const reports: DeliveryReport[] = [];
    const worker = createWebhookDelivery({
      outbox,
      settings: { url: rx.url, secret },
      owner: 'relay-a',
      clock,
      baseDelayMs: 10_000,
      random: () => 1,
      report: (r) => reports.push(r),
    });

    expect(await worker.runOnce()).toBe(1);
    expect(await outbox.get(event.id)).toMatchObject({ state: 'pending', attempts: 1, nextAttemptAt: start + 10_000, lastError: 'HTTP 500' });
    // Not due yet: nothing is sent.
    clock.t = start + 9_999;
    expect(await worker.runOnce()).toBe(0);
    clock.t = start + 10_000;
    expect(await worker.runOnce()).toBe(1);
    // The delay doubled.
    expect(await outbox.get(event.id)).toMatchObject({ attempts: 2, nextAttemptAt: start + 30_000, lastError: 'HTTP 503' });
    clock.t = start + 30_000;
    expect(await worker.runOnce()).toBe(1);
    clock.t = start + 3_600_000;
    expect(await worker.runOnce()).toBe(0);

    expect(rx.received.map((r) => r.id)).toEqual([event.id, event.id, event.id]);
    expect(rx.received.every((r) => r.verified)).toBe(true);
    expect(reports.map((r) => [r.attempt, r.outcome, r.status])).toEqual([
      [1, 'retry', 500],
      [2, 'retry', 503],
      [3, 'delivered', 200],
    ]);
    expect(await outbox.get(event.id)).toMatchObject({ state: 'delivered', attempts: 3 });
    await rx.close();
  });

  it('makes a last attempt when the 24 h retry period ends, then records that it gave up', async () => {
    const outbox = createSqliteWebhookOutbox({ db: openDatabase({ dataDir: tempDataDir() }) });
    const event = await leadEventFor('cb-1', T0);
    await outbox.enqueue(event, T0);
    const clock = fakeClock(T0);
    let calls = 0;
    const refusing = (async () => {
      calls++;
      throw new TypeError('fetch failed', { cause: { code: 'ECONNREFUSED' } });
    }) as unknown as typeof fetch;
    const worker = createWebhookDelivery({ outbox, settings: { url: 'https://crm.example/hooks', secret }, owner: 'relay-a', clock, fetch: refusing, random: () => 1 });
    const day = 24 * 3_600_000;
    for (let i = 0; i < 200 && (await outbox.get(event.id))!.state === 'pending'; i++) {
      clock.t = (await outbox.get(event.id))!.nextAttemptAt;
      await worker.runOnce();
    }
    const last = (await outbox.get(event.id))!;
    expect(last).toMatchObject({ state: 'gave_up', lastError: 'TypeError: ECONNREFUSED', finishedAt: T0 + day });
    // 10 s doubling to the 1 h cap: 10 attempts by 10+20+…+2560 s = 5110 s, then hourly: 22 more by
    // 84,310 s, then the last one at 24 h.
    expect(calls).toBe(last.attempts);
    expect(calls).toBe(33);
  });

  it('delivers after a restart in the middle of retrying', async () => {
    const rx = await receiver([502, 200]);
    const dir = tempDataDir();
    const start = Date.now();
    const event = await leadEventFor('cb-1', start);
    const first = openDatabase({ dataDir: dir });
    const outboxA = createSqliteWebhookOutbox({ db: first });
    await outboxA.enqueue(event, start);
    await createWebhookDelivery({ outbox: outboxA, settings: { url: rx.url, secret }, owner: 'relay-a', clock: fakeClock(start), random: () => 0 }).runOnce();
    first.close();

    const outboxB = createSqliteWebhookOutbox({ db: openDatabase({ dataDir: dir }) });
    const clock = fakeClock(start + 60_000);
    expect(await createWebhookDelivery({ outbox: outboxB, settings: { url: rx.url, secret }, owner: 'relay-b', clock }).runOnce()).toBe(1);
    expect(rx.received.map((r) => [r.id, r.verified])).toEqual([
      [event.id, true],
      [event.id, true],
    ]);
    expect(await outboxB.get(event.id)).toMatchObject({ state: 'delivered', attempts: 2 });
    await rx.close();
  });

  it('delivers an event whose relay was killed (SIGKILL) mid-attempt, once its lease has expired', async () => {
    const rx = await receiver([200]);
    const dir = tempDataDir();
    await runAndKill('outbox', dir);
    const outbox = createSqliteWebhookOutbox({ db: openDatabase({ dataDir: dir }) });
    const clock = fakeClock(T0 + crashOutbox.leaseMs - 1);
    const worker = createWebhookDelivery({ outbox, settings: { url: rx.url, secret }, owner: 'relay-b', clock });
    expect(await worker.runOnce()).toBe(0);
    expect(await outbox.nextDueAt()).toBe(T0 + crashOutbox.leaseMs);
    clock.t = T0 + crashOutbox.leaseMs;
    expect(await worker.runOnce()).toBe(1);
    // Its timestamp is T0's (2023): the reference verifier would refuse it as stale, so only the id is checked here.
    expect(rx.received.map((r) => r.id)).toEqual([(await leadEventFor('cb-crash', T0)).id]);
    expect(await outbox.get(rx.received[0]!.id)).toMatchObject({ state: 'delivered', attempts: 2 });
    await rx.close();
  });

  it('runs by itself once started: a notified event is delivered without a call to runOnce', async () => {
    const rx = await receiver([200]);
    const outbox = createSqliteWebhookOutbox({ db: openDatabase({ dataDir: tempDataDir() }) });
    let delivered!: (r: DeliveryReport) => void;
    const reported = new Promise<DeliveryReport>((resolve) => (delivered = resolve));
    const worker = createWebhookDelivery({ outbox, settings: { url: rx.url, secret }, owner: 'relay-a', report: (r) => delivered(r) });
    worker.start();
    const now = Date.now();
    await outbox.enqueue(await leadEventFor('cb-1', now), now);
    worker.notify();
    expect(await reported).toMatchObject({ outcome: 'delivered', status: 200 });
    await worker.stop();
    expect(rx.received.map((r) => r.verified)).toEqual([true]);
    await rx.close();
  });

  it('backs off exponentially, capped, with jitter in [½, 1]', () => {
    expect([1, 2, 3, 4].map((n) => backoffDelay(n, 10_000, 3_600_000, () => 1))).toEqual([10_000, 20_000, 40_000, 80_000]);
    expect(backoffDelay(50, 10_000, 3_600_000, () => 1)).toBe(3_600_000);
    expect(backoffDelay(1, 10_000, 3_600_000, () => 0)).toBe(5_000);
  });
});
