// Every channel a visitor's value reaches, tested with the one hostile set (support/hostile-values.ts)
// through the real relay: the email (its text and HTML parts, through a real SMTP server), Telegram
// (the fake Bot API), the daily digest (text, HTML and Telegram tables), the lead webhook (a real
// receiving server that verifies the signature), the report's CSV and the owner view's JSON. Twice:
// with values sent today (cleaned as they arrive), and with values a relay stored before they were
// cleaned — each channel must hold on its own: every value on its own single line or cell, no line
// that looks like the message's own, no extra digest row or second total, no bidi control, no link
// but an http(s) page of the site, no cell a spreadsheet runs as a formula, in any separator locale.
import { afterEach, describe, expect, it } from 'vitest';
import { type Crm, heldJobFor, SECRET, startCrm } from '../../support/held-calls.ts';
import {
  cleanLines,
  expectCleanStrings,
  expectOneCleanLine,
  expectPageOf,
  FORMULA_START,
  HOSTILE_PAGE_URLS,
  HOSTILE_TEXT,
  hostileWithin,
  readCsv,
} from '../../support/hostile-values.ts';
import { escapeHtml } from '../../../server/src/webhooks/notify/format.ts';
import { arrived, notifyRelayPerTest, type NotifyRig } from '../../support/notify-relay.ts';
import { ORIGIN, postCallback } from '../../support/post-callback.ts';

// Friday 2026-11-20 19:00 in Kyiv: the office is closed, so every request is a booking the owner is told of.
const FRIDAY_EVENING = new Date('2026-11-20T17:00:00Z');
const SATURDAY_1800 = Date.parse('2026-11-21T16:00:00Z');
const MONDAY_1030 = '2026-11-23T10:30:00+02:00';
const OWNER_TOKEN = 'owner_hostile_values_0123456789abcdefghij';
const { clock, start } = notifyRelayPerTest(FRIDAY_EVENING);

let crm: Crm | undefined;
afterEach(async () => {
  await crm?.close();
  crm = undefined;
});

async function startRig(): Promise<{ rig: NotifyRig; crm: Crm }> {
  crm = await startCrm(clock);
  const rig = await start({ LEAD_WEBHOOK_URL: crm.url, LEAD_WEBHOOK_SECRET: SECRET, OWNER_TOKEN, NOTIFY_DIGEST_AT: '18:00', TRUSTED_PROXIES: '127.0.0.1' });
  return { rig, crm };
}

const owner = async (rig: NotifyRig, path: string) => {
  const res = await fetch(`${rig.s.relayUrl}${path}`, { headers: { 'x-owner-token': OWNER_TOKEN } });
  expect(res.status, path).toBe(200);
  return res;
};

/** A booking's fields in the text part, in order: nothing a value writes may add to them. */
const LEAD_LABELS = ['Call booked', 'Number', 'State', 'Time', 'Booked for', 'Source', 'Medium', 'Campaign', 'Page', 'Open in the owner view'];
const labelsOf = (lines: string[]) => lines.filter((l) => /^[^:]+: /.test(l)).map((l) => l.slice(0, l.indexOf(':')));

function checkLeadMessages(rig: NotifyRig, count: number) {
  const mails = rig.smtp.mails.filter((m) => m.parsed.subject!.startsWith('Call booked'));
  const chats = rig.telegram.delivered.filter((c) => c.body.text.startsWith('<b>Call booked'));
  expect(mails).toHaveLength(count);
  expect(chats).toHaveLength(count);
  for (const [i, mail] of mails.entries()) {
    expectOneCleanLine(mail.parsed.subject, `mail ${i} subject`);
    const lines = cleanLines(mail.parsed.text!, `mail ${i} text`);
    expect(labelsOf(lines), `mail ${i}: ${mail.parsed.text}`).toEqual(LEAD_LABELS);
    expect(lines).toHaveLength(15);
    const page = lines.find((l) => l.startsWith('Page: '))!.slice('Page: '.length);
    if (page !== '—') expectPageOf(ORIGIN, page, `mail ${i} page`);
    const html = mail.parsed.html as string;
    cleanLines(html, `mail ${i} html`);
    expect(html.match(/<tr>/g), `mail ${i} html rows`).toHaveLength(LEAD_LABELS.length - 2);
    expect(html).not.toMatch(/<script|<a href="(?!https:\/\/calls\.shop\.example\/owner#lead=)/i);
  }
  for (const [i, chat] of chats.entries()) {
    const lines = cleanLines(chat.body.text, `telegram ${i}`);
    expect(lines).toHaveLength(13);
    expect(labelsOf(lines.slice(3, 11)), `telegram ${i}: ${chat.body.text}`).toEqual(LEAD_LABELS.slice(1, -1));
    expect(chat.body.text).not.toMatch(/<script|<a href="(?!https:\/\/calls\.shop\.example\/owner#lead=)/i);
    expect(chat.body.text.match(/<a /g)).toHaveLength(1);
  }
}

function checkWebhook(crm: Crm, count: number) {
  const events = crm.events.filter((e) => e.type === 'callback.scheduled');
  expect(events).toHaveLength(count);
  for (const [i, e] of events.entries()) {
    expectCleanStrings(e.data, `webhook ${i}`);
    expectPageOf(ORIGIN, e.data.pageUrl, `webhook ${i} pageUrl`);
  }
}

/** Saturday's digest counts the bookings: one row per source, one total, whatever the sources say. */
async function checkDigest(rig: NotifyRig) {
  clock.set(SATURDAY_1800);
  expect(await rig.s.relay.app.notifier!.digest!.runOnce()).toBe('2026-11-21');
  await rig.deliver();
  const mail = rig.smtp.mails.find((m) => m.parsed.subject === 'Leads of 21 November 2026')!;
  const chat = rig.telegram.delivered.find((c) => c.body.text.startsWith('<b>Leads of 21 November'))!;
  const lines = cleanLines(mail.parsed.text!, 'digest text');
  const table = lines.slice(3, lines.indexOf('', 3));
  expect(table[0]).toMatch(/^Source +Leads +Answered +Missed +Failed +Pending +Other$/);
  const rows = table.slice(1);
  for (const row of rows) expect(row, row).toMatch(/^\S+(?: \S+)* {2,}\d+(?: +\d+){5}$/);
  expect(
    rows.filter((r) => /^total\b/i.test(r)),
    table.join('\n'),
  ).toHaveLength(1);
  expect(rows.at(-1)).toMatch(/^Total +\d+/);
  const html = mail.parsed.html as string;
  cleanLines(html, 'digest html');
  expect(html.match(/<tr>/g)).toHaveLength(table.length);
  expect(chat.body.text).toContain(`<pre>${escapeHtml(table.join('\n'))}</pre>`);
  cleanLines(chat.body.text, 'digest telegram');
}

/** The report as CSV, read as a spreadsheet in a comma locale and in a semicolon one (uk, de, pl, ru Excel). */
async function checkCsv(rig: NotifyRig) {
  for (const by of ['source', 'medium', 'campaign', 'department', 'page']) {
    const text = await (await owner(rig, `/owner/api/report.csv?from=2026-11-20&to=2026-11-21&by=${by}`)).text();
    const rows = readCsv(text);
    expect(rows.length).toBeGreaterThan(2);
    for (const row of rows) {
      expect(row, `${by}: ${JSON.stringify(row)}`).toHaveLength(10);
      for (const cell of row) {
        expectOneCleanLine(cell, `csv ${by}`);
        expect(cell, `csv ${by}`).not.toMatch(FORMULA_START);
      }
    }
    for (const row of readCsv(text, ';')) for (const cell of row) expect(cell, `csv ${by} read with ";"`).not.toMatch(FORMULA_START);
  }
}

async function checkOwnerJson(rig: NotifyRig) {
  const held = (await (await owner(rig, '/owner/api/leads')).json()) as { pending: Array<{ pageUrl: string | null }> };
  expect(held.pending.length).toBeGreaterThan(10);
  expectCleanStrings(held, 'owner leads');
  for (const lead of held.pending) expectPageOf(ORIGIN, lead.pageUrl, 'owner lead pageUrl');
  expectCleanStrings(await (await owner(rig, '/owner/api/leads?from=2026-11-20&to=2026-11-21')).json(), 'owner period leads');
  for (const by of ['source', 'page', 'department'])
    expectCleanStrings(await (await owner(rig, `/owner/api/report?from=2026-11-20&to=2026-11-21&by=${by}`)).json(), `report by ${by}`);
}

let phones = 0;
const nextPhone = () => `+38050124${String(10_000 + phones++).slice(1)}`;
const pageFor = (i: number) => (i % 3 === 0 ? `${ORIGIN}/sofa` : HOSTILE_PAGE_URLS[i % HOSTILE_PAGE_URLS.length]!);

describe('hostile visitor values in every channel', () => {
  it('values sent today: email, Telegram, digest, lead webhook, CSV and owner view each show them on one clean line', async () => {
    const { rig, crm } = await startRig();
    const values = Object.values(hostileWithin(200));
    for (const [i, v] of values.entries()) {
      const attribution = { utmSource: v, utmMedium: v, utmCampaign: v, utmTerm: v, utmContent: v, clientId: v };
      const res = await postCallback(
        rig.s,
        { phone: nextPhone(), consent: true, scheduledFor: MONDAY_1030, attribution, locale: v.slice(0, 35), pageUrl: pageFor(i) },
        { forwardedFor: `198.18.${i}.1` },
      );
      expect(res.status, res.text).toBe(202);
    }
    await arrived(rig, values.length + 1);
    await rig.s.relay.app.delivery!.runOnce();
    checkLeadMessages(rig, values.length);
    checkWebhook(crm, values.length);
    await checkCsv(rig);
    await checkOwnerJson(rig);
    await checkDigest(rig);
  });

  it('values stored before they were cleaned: each channel holds on its own', async () => {
    const { rig, crm } = await startRig();
    const { app } = rig.s.relay;
    const values = Object.values(HOSTILE_TEXT);
    const dueAt = Date.parse(MONDAY_1030);
    for (const [i, v] of values.entries()) {
      const job = heldJobFor(nextPhone(), 'scheduled', dueAt);
      job.request = {
        ...job.request,
        attribution: { utmSource: v, utmMedium: v, utmCampaign: v, utmTerm: v, utmContent: v, clientId: v },
        pageUrl: pageFor(i),
        locale: v,
        userAgent: v,
      };
      expect((await app.lifecycle.start(job)).ok).toBe(true);
      // The report's facts and opens as an older relay kept them: as sent.
      const group = { source: v, medium: v, campaign: v, department: v, page: v };
      await app.stores.report.addLead({ callbackId: `old-${i}`, at: clock.ms, requestedAs: 'now', ...group });
      await app.stores.report.countOpen('2026-11-20', group, 'add');
    }
    await arrived(rig, values.length + 1);
    await app.delivery!.runOnce();
    checkLeadMessages(rig, values.length);
    checkWebhook(crm, values.length);
    await checkCsv(rig);
    await checkOwnerJson(rig);
    await checkDigest(rig);
  });
});
