// Notifications to people end to end, with real parts: the relay and the simulator on 127.0.0.1, a
// real SMTP server (smtp-server; mailparser reads what arrived) and a fake of Telegram's Bot API.
// A missed lead (after its re-dial), a booked one, one held through an outage that then fails:
// each arrives once by email (text and escaped HTML, to every recipient, in NOTIFY_LANG) and by
// Telegram, with the number, the state and time in the project's zone, the attribution, the page
// and the owner view's link; and the logs hold no full number and no secret.
import { describe, expect, it } from 'vitest';
import { callsSettled, startGate } from '../../support/held-calls.ts';
import { BOT_TOKEN, CHAT_ID, SMTP_PASSWORD } from '../../support/notify-receivers.ts';
import { arrived, notifyRelayPerTest, type NotifyRig } from '../../support/notify-relay.ts';
import { postCallback } from '../../support/post-callback.ts';

// Monday 2026-11-23 10:00 in Kyiv: the office (Mon-Fri 09-18) is open.
const MONDAY_10 = new Date('2026-11-23T08:00:00Z');
const { clock, start } = notifyRelayPerTest(MONDAY_10);
const NO_ANSWER = '+380501234599';
const ATTRIBUTION = { utmSource: 'google', utmMedium: 'cpc', utmCampaign: 'sofa <b>&"sale"</b>' };
const PAGE = 'https://shop.example/sofa?size=<xl>&color="red"';
/** The page as the relay keeps it: as the URL parser (and a browser's location.href) writes it. */
const PAGE_KEPT = 'https://shop.example/sofa?size=%3Cxl%3E&color=%22red%22';

/** The logs hold neither the full number nor a secret of a channel. */
function expectCleanLogs(rig: NotifyRig, digits: string) {
  const text = rig.s.rawLogs.join('\n');
  expect(text).not.toContain(digits);
  expect(text).not.toContain(BOT_TOKEN);
  expect(text).not.toContain(SMTP_PASSWORD);
  expect(rig.s.logs.filter((l) => l.msg === 'notification').length).toBeGreaterThan(0);
}

describe('notifications to people', () => {
  it('a lead nobody answered after its re-dial: one email and one Telegram message, in Ukrainian, escaped', async () => {
    const rig = await start({ NOTIFY_LANG: 'uk', REDIAL_ATTEMPTS: '1', REDIAL_DELAY_SECONDS: '300' });
    const { s } = rig;
    const res = await postCallback(s, { phone: NO_ANSWER, consent: true, attribution: ATTRIBUTION, pageUrl: PAGE });
    expect(res.json.status).toBe('accepted');
    const id = res.json.requestId!;
    // The first miss is re-dialled: nobody is told yet.
    await callsSettled(s, NO_ANSWER);
    clock.advance(20_000);
    expect(await s.relay.runner.runOnce()).toBe(1);
    expect(await s.relay.app.stores.jobs.get(id)).toMatchObject({ stage: 'redial' });
    expect(await rig.deliver()).toBe(0);
    // The re-dial is missed too: now the owner hears of it.
    clock.set((await s.relay.app.stores.jobs.get(id))!.dueAt);
    expect(await s.relay.runner.runOnce()).toBe(1);
    await callsSettled(s, NO_ANSWER);
    clock.advance(20_000);
    const missedAt = clock.ms;
    expect(await s.relay.runner.runOnce()).toBe(1);
    expect(await s.relay.app.stores.jobs.get(id)).toMatchObject({ stage: 'missed' });

    const { mails, chats } = await arrived(rig, 1);
    const mail = mails[0]!;
    expect(mail.envelope).toEqual({ from: 'calls@shop.example', to: ['owner@shop.example', 'sales@shop.example'] });
    expect(mail.parsed.subject).toBe(`Пропущений лід: ${NO_ANSWER}`);
    const time = `${new Intl.DateTimeFormat('uk-UA', { timeZone: 'Europe/Kyiv', dateStyle: 'medium', timeStyle: 'short' }).format(missedAt)} (Europe/Kyiv)`;
    const SAY = 'Ніхто не відповів відвідувачу, навіть після повторних дзвінків. Передзвоніть, будь ласка.';
    /** The fields, with the visitor's campaign and page as each channel writes them. */
    const fields = (campaign: string, page: string) => [
      `Номер: ${NO_ANSWER}`,
      'Стан: пропущено (немає відповіді)',
      `Час: ${time}`,
      'Джерело: google',
      'Канал: cpc',
      `Кампанія: ${campaign}`,
      `Сторінка: ${page}`,
    ];
    expect(mail.parsed.text).toBe(
      [
        `Пропущений лід: ${NO_ANSWER}`,
        '',
        SAY,
        '',
        ...fields('sofa <b>&"sale"</b>', PAGE_KEPT),
        '',
        `Відкрити в кабінеті власника: https://calls.shop.example/owner#lead=${id}`,
        '',
      ].join('\n'),
    );
    // The HTML part shows the visitor's values as text, never as markup.
    const html = mail.parsed.html as string;
    expect(html).toContain('<html lang="uk">');
    expect(html).toContain('<td>sofa &lt;b&gt;&amp;&quot;sale&quot;&lt;/b&gt;</td>');
    expect(html).toContain('<td>https://shop.example/sofa?size=%3Cxl%3E&amp;color=%22red%22</td>');
    expect(html).not.toContain('<b>&');
    expect(html).toContain(`<a href="https://calls.shop.example/owner#lead=${id}">Відкрити в кабінеті власника</a>`);

    expect(chats).toHaveLength(1);
    const chat = chats[0]!;
    expect(chat.path).toBe(`/bot${BOT_TOKEN}/sendMessage`);
    expect(chat.body).toMatchObject({ chat_id: CHAT_ID, parse_mode: 'HTML', link_preview_options: { is_disabled: true } });
    expect(chat.body.text.split('\n')).toEqual([
      `<b>Пропущений лід: ${NO_ANSWER}</b>`,
      SAY,
      '',
      ...fields('sofa &lt;b&gt;&amp;&quot;sale&quot;&lt;/b&gt;', 'https://shop.example/sofa?size=%3Cxl%3E&amp;color=%22red%22'),
      '',
      `<a href="https://calls.shop.example/owner#lead=${id}">Відкрити в кабінеті власника</a>`,
    ]);
    // Exactly once: nothing more to send, nothing sent twice.
    expect(await rig.deliver()).toBe(0);
    expect(rig.smtp.mails).toHaveLength(1);
    expect(rig.telegram.requests).toHaveLength(1);
    expectCleanLogs(rig, '501234599');
    const metrics = await s.relay.app.metrics.registry.render();
    expect(metrics).toMatch(/dialback_notify_sent_total\{channel="email"\} 1/);
    expect(metrics).toMatch(/dialback_notify_pending\{channel="telegram"\} 0/);
  });

  it('a call booked for later: the booked time and the time told in the project zone, in English by default', async () => {
    // Friday 19:00 in Kyiv: the office is closed; the visitor books Monday 10:30.
    clock.set(new Date('2026-11-20T17:00:00Z'));
    const rig = await start();
    const res = await postCallback(rig.s, { phone: '+380501234567', consent: true, scheduledFor: '2026-11-23T10:30:00+02:00', attribution: { utmSource: 'facebook' } });
    expect(res.json.status).toBe('scheduled');
    const id = res.json.requestId!;
    const { mails, chats } = await arrived(rig, 1);
    expect(mails[0]!.parsed.subject).toBe('Call booked: +380501234567');
    expect(mails[0]!.parsed.text).toContain(
      [
        'Number: +380501234567',
        'State: booked',
        'Time: 20 Nov 2026, 19:00 (Europe/Kyiv)',
        'Booked for: 23 Nov 2026, 10:30 (Europe/Kyiv)',
        'Source: facebook',
        'Medium: —',
        'Campaign: —',
        'Page: —',
      ].join('\n'),
    );
    expect(mails[0]!.parsed.html as string).toContain('<html lang="en">');
    expect(chats[0]!.body.text).toContain(`<a href="https://calls.shop.example/owner#lead=${id}">Open in the owner view</a>`);
    expectCleanLogs(rig, '501234567');
  });

  it('held through an outage, then failed: two messages each, the number masked with NOTIFY_MASK_NUMBER', async () => {
    const gate = await startGate();
    try {
      const rig = await start({
        NOTIFY_MASK_NUMBER: 'true',
        QUEUE_MAX_WAIT_SECONDS: '60',
        CALLTRACKING_BASE_URL: gate.url,
        CALLTRACKING_AUTH_KEY: 'sim-auth-key-0123456789',
        CALLTRACKING_PROJECT_ID: '100500',
        CALLBACK_CALLER: '380441112233',
      });
      gate.target = rig.s.sim.url;
      await gate.down();
      const res = await postCallback(rig.s, { phone: '+380507654321', consent: true, attribution: { utmSource: 'google' } });
      expect(res.json.status).toBe('queued');
      const id = res.json.requestId!;
      for (let i = 0; i < 20 && (await rig.s.relay.app.stores.jobs.get(id))!.state === 'pending'; i++) {
        clock.set((await rig.s.relay.app.stores.jobs.get(id))!.dueAt);
        await rig.s.relay.runner.runOnce();
      }
      expect(await rig.s.relay.app.stores.jobs.get(id)).toMatchObject({ state: 'failed', outcome: 'upstream_unavailable' });
      const { mails, chats } = await arrived(rig, 2);
      const masked = (await rig.s.relay.app.stores.jobs.get(id))!.maskedNumber;
      expect(mails.map((m) => m.parsed.subject).sort()).toEqual([`Failed lead: ${masked}`, `Lead held: ${masked}`]);
      const failed = mails.find((m) => m.parsed.subject!.startsWith('Failed'))!;
      expect(failed.parsed.text).toContain(`Number: ${masked}\nState: failed\n`);
      expect(failed.parsed.text).toContain('\nReason: upstream_unavailable\n');
      expect(chats.map((c) => c.body.text.split('\n')[0])).toEqual(expect.arrayContaining([`<b>Lead held: ${masked}</b>`, `<b>Failed lead: ${masked}</b>`]));
      const everything = JSON.stringify([mails.map((m) => [m.parsed.text, m.parsed.html]), chats]);
      expect(everything).not.toContain('507654321');
      expectCleanLogs(rig, '507654321');
    } finally {
      await gate.down();
    }
  });

  it('an answered call, and steps NOTIFY_ON leaves out, tell nobody', async () => {
    const rig = await start({ NOTIFY_ON: 'missed' });
    const res = await postCallback(rig.s, { phone: '+380501234567', consent: true });
    expect(res.json.status).toBe('accepted');
    await callsSettled(rig.s, '+380501234567');
    clock.advance(20_000);
    expect(await rig.s.relay.runner.runOnce()).toBe(1);
    expect(await rig.s.relay.app.stores.jobs.get(res.json.requestId!)).toMatchObject({ stage: 'answered' });
    clock.set(new Date('2026-11-23T17:00:00Z'));
    const booked = await postCallback(rig.s, { phone: '+380501234568', consent: true, scheduledFor: '2026-11-24T10:30:00+02:00' });
    expect(booked.json.status).toBe('scheduled');
    expect(await rig.deliver()).toBe(0);
    expect(rig.smtp.mails).toHaveLength(0);
    expect(rig.telegram.requests).toHaveLength(0);
  });
});
