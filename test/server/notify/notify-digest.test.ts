// The daily digest at NOTIFY_DIGEST_AT, on a controllable clock, over the relay's SQLite store: the
// leads of the 24 hours before it by utm source (answered, missed, failed, pending, other), sent
// once by email and Telegram; not again by the same relay or by one restarted on the same store;
// and by a relay that was down at the time, once it starts.
import { describe, expect, it } from 'vitest';
import { callsSettled } from '../../support/held-calls.ts';
import { arrived, notifyRelayPerTest, type NotifyRig } from '../../support/notify-relay.ts';
import { postCallback } from '../../support/post-callback.ts';
import { tempDir } from '../../support/temp-dirs.ts';

// Monday 2026-11-23 10:00 in Kyiv: the office (Mon-Fri 09-18) is open.
const MONDAY_10 = new Date('2026-11-23T08:00:00Z');
const MONDAY_1800 = Date.parse('2026-11-23T16:00:00Z');
const { clock, start } = notifyRelayPerTest(MONDAY_10);

/** A call now to `phone` from `utmSource`, followed to its end. */
async function callNow(rig: NotifyRig, phone: string, utmSource?: string) {
  const res = await postCallback(rig.s, { phone, consent: true, ...(utmSource && { attribution: { utmSource } }) });
  expect(res.json.status).toBe('accepted');
  await callsSettled(rig.s, phone);
  clock.advance(20_000);
  expect(await rig.s.relay.runner.runOnce()).toBe(1);
}

describe('daily digest', () => {
  it("counts the day's leads by source, is sent once at its time, and once only across a restart", async () => {
    const dataDir = tempDir('digest');
    const env = { NOTIFY_DIGEST_AT: '18:00', REDIAL_ATTEMPTS: '0', DATA_DIR: dataDir };
    const rig = await start(env);
    const digest = rig.s.relay.app.notifier!.digest!;
    // Started after Sunday's time, with Sunday's digest never sent: the relay sent it as it started (empty).
    expect(await digest.runOnce()).toBeNull();
    const sunday = await arrived(rig, 1);
    expect(sunday.mails[0]!.parsed.subject).toBe('Leads of 22 November 2026');
    expect(sunday.mails[0]!.parsed.text).toContain('\n\nNo leads in these 24 hours.\n');

    await callNow(rig, '+380501234567', 'google');
    await callNow(rig, '+380501234599', 'google'); // never answers: missed
    await callNow(rig, '+380501234569');
    const booked = await postCallback(rig.s, { phone: '+380501234568', consent: true, scheduledFor: '2026-11-24T10:30:00+02:00', attribution: { utmSource: 'facebook' } });
    expect(booked.json.status).toBe('scheduled');

    clock.set(MONDAY_1800 - 1);
    expect(await digest.runOnce()).toBeNull();
    clock.set(MONDAY_1800);
    expect(await digest.runOnce()).toBe('2026-11-23');
    // Sunday's digest, the missed and the booked lead's messages, and Monday's digest.
    const { mails, chats } = await arrived(rig, 4);
    const mail = mails.find((m) => m.parsed.subject!.startsWith('Leads of 23'))!;
    expect(mail.parsed.subject).toBe('Leads of 23 November 2026');
    const table = [
      'Source       Leads  Answered  Missed  Failed  Pending  Other',
      'google           2         1       1       0        0      0',
      'facebook         1         0       0       0        1      0',
      '(no source)      1         1       0       0        0      0',
      'Total            4         2       1       0        1      0',
    ].join('\n');
    expect(mail.parsed.text).toBe(
      ['Leads of 23 November 2026', '22 Nov 2026, 18:00 (Europe/Kyiv) – 23 Nov 2026, 18:00 (Europe/Kyiv)', '', table, '', 'Owner view: https://calls.shop.example/owner', ''].join(
        '\n',
      ),
    );
    expect(mail.parsed.html as string).toContain('<td align="left" style="padding:2px 8px">(no source)</td>');
    expect(chats.find((c) => c.body.text.startsWith('<b>Leads of 23'))!.body.text).toContain(`<pre>${table}</pre>`);
    // The same relay again, later: nothing more.
    clock.set(MONDAY_1800 + 3_600_000);
    expect(await digest.runOnce()).toBeNull();
    expect(await rig.deliver()).toBe(0);

    // A restart on the same store finds the day claimed.
    await rig.close();
    const again = await start(env);
    expect(await again.s.relay.app.notifier!.digest!.runOnce()).toBeNull();
    expect(await again.deliver()).toBe(0);
    await again.close();

    // Down at Tuesday's time, started at 20:00: Tuesday's digest is sent as it starts.
    clock.set(MONDAY_1800 + 26 * 3_600_000);
    const late = await start(env);
    expect(await late.s.relay.app.notifier!.digest!.runOnce()).toBeNull();
    const tuesday = await arrived(late, 1);
    expect(tuesday.mails[0]!.parsed.subject).toBe('Leads of 24 November 2026');
    expect(tuesday.mails[0]!.parsed.text).toContain('No leads in these 24 hours.');
    expect(late.smtp.mails).toHaveLength(1);
    expect(late.telegram.delivered).toHaveLength(1);
  });
});
