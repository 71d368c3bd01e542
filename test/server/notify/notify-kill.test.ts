// kill -9 and notifications: a relay (fixtures/notify-relay-child.ts) tells of a booking and is
// killed with SIGKILL — before any delivery, or with the email delivered and Telegram's attempt
// under way. A relay restarted on the same DATA_DIR delivers what was not: each message arrives,
// the delivered email never twice, Telegram's interrupted one once its lease has run out (at least
// once). The receivers live in this process, so they remember what the dead relay sent.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, describe, expect, it } from 'vitest';
import { loadConfig } from '../../../server/src/config/index.ts';
import { createLogger } from '../../../server/src/log/index.ts';
import { createRelay } from '../../../server/src/relay.ts';
import { openEmbeddedStores } from '../../../server/src/app/relay-stores.ts';
import { CHILD_PHONE, HELD_ENV, testClock, until } from '../../support/held-calls.ts';
import { BOT_TOKEN, NO_SERVICE_ENV, notifyEnv, SMTP_PASSWORD, startFakeTelegram, startSmtp, type FakeTelegram } from '../../support/notify-receivers.ts';
import { spawnUntilReady } from '../../support/crash.ts';

const T0 = Date.parse('2026-11-23T08:00:00Z');
/** The notifications' lease: their 10 s timeout and 30 s more. */
const LEASE_MS = 40_000;
const clock = testClock(new Date(T0));
const childScript = fileURLToPath(new URL('../../support/fixtures/notify-relay-child.ts', import.meta.url));

const cleanup: Array<() => Promise<void> | void> = [];
afterEach(async () => {
  for (const fn of cleanup.splice(0).reverse()) await fn();
  clock.set(T0);
});

/** Runs the child to `step`, waits for Telegram's hung request when there is one, and kills it with SIGKILL; its log. */
async function runChildAndKill(args: string[], telegram: FakeTelegram, hung: boolean): Promise<string> {
  const child = await spawnUntilReady(childScript, args);
  if (hung) await until(() => telegram.requests.length === 1, "Telegram's hung request");
  await child.kill();
  return child.err;
}

async function restartOn(dataDir: string, env: Record<string, string>) {
  const config = loadConfig({ ...HELD_ENV, ...NO_SERVICE_ENV, PORT: '0', DATA_DIR: dataDir, ...env });
  const stores = openEmbeddedStores(config, () => clock.ms);
  const relay = createRelay({ config, log: createLogger({ level: 'silent' }), stores, now: clock.now, timers: { setTimeout: () => null, clearTimeout: () => {} } });
  cleanup.push(async () => {
    await relay.app.notifier!.stop();
    await relay.close();
    await stores.close();
  });
  const run = (channel: 'email' | 'telegram') => relay.app.notifier!.deliveries.get(channel)!.runOnce();
  return { relay, run };
}

describe('kill -9 and notifications', () => {
  it.each([
    ['stored', 'before any delivery'],
    ['sending', "with the email delivered and Telegram's attempt under way"],
  ] as const)(
    '%s (%s): every message arrives after a restart, the delivered one never twice',
    async (step, _what) => {
      const smtp = await startSmtp();
      const telegram = await startFakeTelegram();
      cleanup.push(smtp.close, telegram.close);
      const dataDir = mkdtempSync(join(tmpdir(), 'dialback-notify-'));
      cleanup.push(() => rmSync(dataDir, { recursive: true, force: true }));
      if (step === 'sending') telegram.script.push(0);

      const log = await runChildAndKill([dataDir, smtp.url, telegram.url, step, String(T0)], telegram, step === 'sending');
      expect(log).not.toContain(CHILD_PHONE.slice(1));
      expect(log).not.toContain(BOT_TOKEN);
      expect(log).not.toContain(SMTP_PASSWORD);
      expect(smtp.mails).toHaveLength(step === 'sending' ? 1 : 0);
      expect(telegram.delivered).toHaveLength(0);

      const { run } = await restartOn(dataDir, notifyEnv(smtp, telegram));
      if (step === 'sending') {
        // The dead relay's lease still holds Telegram's message; its delivered email is not sent again.
        clock.set(T0 + LEASE_MS - 1);
        expect(await run('email')).toBe(0);
        expect(await run('telegram')).toBe(0);
      }
      clock.set(T0 + LEASE_MS);
      expect(await run('email')).toBe(step === 'sending' ? 0 : 1);
      expect(await run('telegram')).toBe(1);
      await until(() => smtp.mails.length === 1 && telegram.delivered.length === 1, 'one email and one Telegram message');
      expect(smtp.mails[0]!.parsed.subject).toBe(`Call booked: ${CHILD_PHONE}`);
      expect(telegram.delivered[0]!.body.text).toContain(`<b>Call booked: ${CHILD_PHONE}</b>`);
      // Nothing more, ever.
      clock.set(T0 + 10 * LEASE_MS);
      expect((await run('email')) + (await run('telegram'))).toBe(0);
      expect(smtp.mails).toHaveLength(1);
      expect(telegram.requests).toHaveLength(step === 'sending' ? 2 : 1);
      // A child relay starts in a few seconds, in tens on a machine busy with other test runs.
    },
    90_000,
  );
});
