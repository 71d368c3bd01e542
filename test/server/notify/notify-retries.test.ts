// Retries of the people's channels, on a controllable clock against the real SMTP server and the fake
// Telegram: a 429 waits at least Telegram's retry_after, a 500 backs off and tries again, and while
// Telegram fails the email goes out regardless (each channel is claimed on its own). A message is
// delivered once however many attempts it took; past 24 h it is given up and counted.
import { describe, expect, it } from 'vitest';
import { createLogger } from '../../../server/src/log/index.ts';
import { createRegistry } from '../../../server/src/metrics/registry.ts';
import { openDatabase } from '../../../server/src/storage/sqlite/database.ts';
import { createMemoryLeadTally } from '../../../server/src/webhooks/notify/lead-tally.ts';
import { createNotifier, type Notifier } from '../../../server/src/webhooks/notify/notifier.ts';
import { createSqliteWebhookOutbox } from '../../../server/src/webhooks/sqlite-outbox.ts';
import { loadConfig } from '../../../server/src/config/index.ts';
import { tempDataDir } from '../../support/crash.ts';
import { until } from '../../support/held-calls.ts';
import { notifyEnv, startFakeTelegram, startSmtp } from '../../support/notify-receivers.ts';
import { testSimulator } from '../../support/config-error.ts';

const T0 = Date.parse('2026-11-23T08:00:00Z');

async function rig(retryAfterSeconds = 30) {
  const smtp = await startSmtp();
  const telegram = await startFakeTelegram(retryAfterSeconds);
  const clock = { ms: T0 };
  const outbox = createSqliteWebhookOutbox({ db: openDatabase({ dataDir: tempDataDir() }) });
  const registry = createRegistry();
  const lines: string[] = [];
  const config = loadConfig(notifyEnv(smtp, telegram), testSimulator);
  const notifier = createNotifier({
    settings: config.notify,
    timeZone: 'Europe/Kyiv',
    publicUrl: 'https://calls.shop.example',
    outbox,
    tally: createMemoryLeadTally(),
    owner: 'relay-a',
    now: () => clock.ms,
    timers: { setTimeout: () => 0, clearTimeout: () => {} },
    log: createLogger({ level: 'debug', write: (line) => lines.push(line) }),
    registry,
    timing: { baseDelayMs: 10_000, random: () => 1 },
  }) as Notifier;
  const run = (channel: 'email' | 'telegram') => notifier.deliveries.get(channel)!.runOnce();
  const close = async () => {
    await notifier.stop();
    await smtp.close();
    await telegram.close();
  };
  return { smtp, telegram, clock, outbox, registry, lines, notifier, run, close };
}

const notice = {
  kind: 'missed' as const,
  callbackId: '0b7c0c0e-0000-4000-8000-000000000001',
  at: T0,
  e164: '+380501234599',
  maskedNumber: '+380 50 *** **99',
  numberHash: 'hash',
  department: 'Sales <north>',
  attribution: { utmSource: 'google' },
  pageUrl: null,
  scheduledFor: null,
  reason: null,
};

describe('notification retries', () => {
  it('a 429 waits for retry_after, a 500 backs off; the email is not held back; each arrives once', async () => {
    const r = await rig(30);
    try {
      r.telegram.script.push(429, 500);
      await r.notifier.tell(notice);
      // Telegram refuses; email goes out at once all the same.
      expect(await r.run('telegram')).toBe(1);
      expect(await r.run('email')).toBe(1);
      await until(() => r.smtp.mails.length === 1, 'the email');
      expect(r.telegram.requests).toHaveLength(1);
      // retry_after 30 s beats the first backoff (10 s).
      expect(await r.outbox.nextDueAt('telegram')).toBe(T0 + 30_000);
      r.clock.ms = T0 + 29_999;
      expect(await r.run('telegram')).toBe(0);
      r.clock.ms = T0 + 30_000;
      expect(await r.run('telegram')).toBe(1);
      // The 500: the backoff doubles (20 s from now).
      expect(await r.outbox.nextDueAt('telegram')).toBe(T0 + 50_000);
      r.clock.ms = T0 + 50_000;
      expect(await r.run('telegram')).toBe(1);
      expect(r.telegram.requests.map((q) => q.body.text)).toEqual(Array(3).fill(r.telegram.requests[0]!.body.text));
      expect(r.telegram.delivered).toHaveLength(1);
      expect(await r.run('telegram')).toBe(0);
      // The department is shown, escaped.
      expect(r.telegram.delivered[0]!.body.text).toContain('Department: Sales &lt;north&gt;');
      expect(r.smtp.mails[0]!.parsed.text).toContain('Department: Sales <north>');
      const metrics = await r.registry.render();
      expect(metrics).toMatch(/dialback_notify_failures_total\{channel="telegram"\} 2/);
      expect(metrics).toMatch(/dialback_notify_sent_total\{channel="telegram"\} 1/);
      expect(metrics).toMatch(/dialback_notify_sent_total\{channel="email"\} 1/);
      expect(metrics).toMatch(/dialback_notify_pending\{channel="telegram"\} 0/);
      // The log tells each attempt without the number or the token.
      const log = r.lines.join('\n');
      expect(log).toContain('HTTP 429: Too Many Requests: retry after 30');
      expect(log).not.toContain('501234599');
      expect(log).not.toContain('AAF-test_bot_token');
    } finally {
      await r.close();
    }
  });

  it('a mail server that refuses (451) is retried; a Telegram down for 24 h is given up, counted', async () => {
    const r = await rig();
    try {
      r.smtp.refuseNext(1);
      r.telegram.script.push(...Array(100).fill(500));
      await r.notifier.tell(notice);
      expect(await r.run('email')).toBe(1);
      expect(r.smtp.mails).toHaveLength(0);
      expect(await r.outbox.pendingCount('email')).toBe(1);
      r.clock.ms = (await r.outbox.nextDueAt('email'))!;
      expect(await r.run('email')).toBe(1);
      await until(() => r.smtp.mails.length === 1, 'the email');
      for (let i = 0; i < 60 && (await r.outbox.pendingCount('telegram')) > 0; i++) {
        r.clock.ms = Math.max(r.clock.ms, (await r.outbox.nextDueAt('telegram'))!);
        await r.run('telegram');
      }
      expect(await r.outbox.pendingCount('telegram')).toBe(0);
      expect(r.clock.ms).toBe(T0 + 24 * 3_600_000);
      const metrics = await r.registry.render();
      expect(metrics).toMatch(/dialback_notify_gave_up_total\{channel="telegram"\} 1/);
      expect(metrics).toMatch(/dialback_notify_failures_total\{channel="email"\} 1/);
    } finally {
      await r.close();
    }
  });
});
