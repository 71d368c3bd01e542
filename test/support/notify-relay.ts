// The notification tests' fixture: one relay per test with its simulator, a real SMTP server and a
// fake Telegram, on a test clock; the runner and every background timer (deliveries, the digest)
// run only when the test asks, so what is sent when is the test's to say. Closed after each test.
import { afterEach } from 'vitest';
import { HELD_ENV, manualTimers, testClock, until } from './held-calls.ts';
import { type FakeTelegram, notifyEnv, type SmtpReceiver, startFakeTelegram, startSmtp } from './notify-receivers.ts';
import { QUICK_CALLS, startSystem, type System } from './system.ts';

export interface NotifyRig {
  s: System;
  smtp: SmtpReceiver;
  telegram: FakeTelegram;
  /** Runs both channels' deliveries once; resolves with how many entries were attempted. */
  deliver(): Promise<number>;
  /** Stops the relay (a restart: the next start may open the same DATA_DIR); the receivers stay until the test ends. */
  close(): Promise<void>;
}

export function notifyRelayPerTest(at: Date) {
  const clock = testClock(at);
  const open: Array<() => Promise<void>> = [];
  afterEach(async () => {
    for (const close of open.splice(0).reverse()) await close();
    clock.set(at);
  });
  return {
    clock,
    async start(env: Record<string, string> = {}): Promise<NotifyRig> {
      const smtp = await startSmtp();
      open.push(smtp.close);
      const telegram = await startFakeTelegram();
      open.push(telegram.close);
      const timers = manualTimers(clock);
      const s = await startSystem(
        { ...HELD_ENV, WORKING_HOURS: 'Mon-Fri 09:00-18:00', TIMEZONE: 'Europe/Kyiv', ...notifyEnv(smtp, telegram), ...env },
        { simulator: { timing: QUICK_CALLS, now: clock.now }, now: clock.now, timers, runner: { timers } },
      );
      let closed: Promise<void> | undefined;
      const close = () => (closed ??= s.close());
      open.push(close);
      // The relay started its deliveries and digest; they wait for the test instead (runOnce), so
      // no pass of theirs runs behind its back while the test clock jumps past a lease.
      const { notifier } = s.relay.app;
      await Promise.all([...notifier!.deliveries.values()].map((d) => d.stop()));
      await notifier!.digest?.stop();
      const deliver = async () => {
        const counts = await Promise.all([...s.relay.app.notifier!.deliveries.values()].map((d) => d.runOnce()));
        return counts.reduce((a, b) => a + b, 0);
      };
      return { s, smtp, telegram, deliver, close };
    },
  };
}

/** The mails and Telegram messages once `n` of each have arrived. */
export async function arrived(rig: NotifyRig, n: number) {
  await rig.deliver();
  await until(() => rig.smtp.mails.length >= n && rig.telegram.delivered.length >= n, `${n} emails and Telegram messages`);
  return { mails: rig.smtp.mails, chats: rig.telegram.delivered };
}
