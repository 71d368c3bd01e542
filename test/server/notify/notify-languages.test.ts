// The owner's messages in each of the twelve languages (NOTIFY_LANG): every catalog has every text
// with English's placeholders; a lead's message and the digest render in it with the words of that
// language only (the HTML part says which language it is in); and, through a real relay with a real
// SMTP server and a fake Telegram, a booked call is told in each of the seven newer languages.
import { describe, expect, it, test } from 'vitest';
import { NOTIFY_EVENTS, NOTIFY_LANGUAGES } from '../../../server/src/config/notify.ts';
import { catalogs } from '../../../server/src/webhooks/notify/catalog/index.ts';
import type { LeadNotice } from '../../../server/src/webhooks/notify/notice.ts';
import { renderDigest } from '../../../server/src/webhooks/notify/render-digest.ts';
import { renderLead } from '../../../server/src/webhooks/notify/render-lead.ts';
import { launcherText } from '../../../widget/src/launcher-text.ts';
import { arrived, notifyRelayPerTest } from '../../support/notify-relay.ts';
import { postCallback } from '../../support/post-callback.ts';

const en = catalogs.en;

function strings(value: unknown, path = ''): Array<[string, string]> {
  if (typeof value === 'string') return [[path, value]];
  return Object.entries(value as Record<string, unknown>).flatMap(([k, v]) => strings(v, path ? `${path}.${k}` : k));
}
const placeholders = (s: string) => [...s.matchAll(/\{(\w+)\}/g)].map((x) => x[1]).sort();

const notice = (kind: LeadNotice['kind']): LeadNotice => ({
  kind,
  callbackId: 'cb_1',
  at: Date.parse('2026-11-23T08:00:00Z'),
  e164: '+380501234567',
  maskedNumber: '+380 50 *** **67',
  numberHash: 'h',
  department: 'sales',
  attribution: { utmSource: 'google', utmMedium: 'cpc', utmCampaign: 'sofa' },
  pageUrl: 'https://shop.example/sofa',
  scheduledFor: kind === 'scheduled' ? Date.parse('2026-11-24T08:30:00Z') : null,
  reason: kind === 'failed' ? 'upstream_rejected' : null,
});

test('the owner speaks the languages the widget speaks', () => {
  expect([...NOTIFY_LANGUAGES].sort()).toEqual(Object.keys(launcherText).sort());
  expect(Object.keys(catalogs).sort()).toEqual([...NOTIFY_LANGUAGES].sort());
});

describe.each(NOTIFY_LANGUAGES)('NOTIFY_LANG=%s', (lang) => {
  const texts = catalogs[lang];

  it('has every text of English, none empty, with the same placeholders, and a locale of its language', () => {
    const mine = new Map(strings(texts));
    for (const [key, text] of strings(en)) {
      expect(mine.get(key)?.trim(), key).toBeTruthy();
      expect(placeholders(mine.get(key)!), key).toEqual(placeholders(text));
    }
    expect([...mine.keys()].sort()).toEqual(
      strings(en)
        .map(([k]) => k)
        .sort(),
    );
    expect(texts.locale.slice(0, 2)).toBe(lang);
    expect(new Intl.DateTimeFormat(texts.locale).resolvedOptions().locale).toBe(texts.locale);
  });

  it("renders each step's message in its words, never in English's", () => {
    for (const kind of NOTIFY_EVENTS) {
      const m = renderLead(notice(kind), { texts, timeZone: 'Europe/Kyiv', publicUrl: 'https://calls.shop.example', maskNumber: false });
      expect(m.subject).toBe(`${texts.title[kind]}: +380501234567`);
      for (const part of [m.text, m.html, m.telegram]) {
        expect(part).toContain(texts.lead[kind]);
        expect(part).toContain(texts.state[kind]);
        expect(part).toContain(texts.open);
        if (lang !== 'en') expect(part).not.toContain(en.lead[kind]);
      }
      expect(m.text).toContain(`${texts.labels.number}: +380501234567`);
      expect(m.html).toContain(`<html lang="${lang}">`);
    }
  });

  it('renders the digest in its words: the title with the day, the table, the empty day', () => {
    const window = { from: Date.parse('2026-11-22T16:00:00Z'), to: Date.parse('2026-11-23T16:00:00Z') };
    const rows = [
      { source: 'google', outcome: 'answered' as const, count: 2 },
      { source: null, outcome: 'missed' as const, count: 1 },
    ];
    const day = new Intl.DateTimeFormat(texts.locale, { timeZone: 'Europe/Kyiv', dateStyle: 'long' }).format(window.to - 1);
    const m = renderDigest(rows, window, texts, 'Europe/Kyiv', 'https://calls.shop.example/owner');
    expect(m.subject).toBe(texts.digest.title.replace('{day}', day));
    for (const word of [texts.digest.source, texts.digest.leads, texts.digest.answered, texts.digest.missed, texts.digest.total, texts.digest.direct, texts.digest.open]) {
      expect(m.text).toContain(word);
      expect(m.telegram).toContain(word);
    }
    expect(m.html).toContain(`<html lang="${lang}">`);
    expect(renderDigest([], window, texts, 'Europe/Kyiv', 'https://calls.shop.example/owner').text).toContain(texts.digest.empty);
  });
});

describe('through a real relay', () => {
  // Friday 19:00 in Kyiv: the office is closed; the visitor books Monday 10:30.
  const { start } = notifyRelayPerTest(new Date('2026-11-20T17:00:00Z'));

  it.each(['cs', 'ro', 'lt', 'lv', 'et', 'kk', 'es'] as const)('a booked call is told by email and Telegram in NOTIFY_LANG=%s', async (lang) => {
    const texts = catalogs[lang];
    const rig = await start({ NOTIFY_LANG: lang });
    const res = await postCallback(rig.s, { phone: '+380501234567', consent: true, scheduledFor: '2026-11-23T10:30:00+02:00', attribution: { utmSource: 'facebook' } });
    expect(res.json.status).toBe('scheduled');
    const { mails, chats } = await arrived(rig, 1);
    expect(mails[0]!.parsed.subject).toBe(`${texts.title.scheduled}: +380501234567`);
    expect(mails[0]!.parsed.text).toContain(texts.lead.scheduled);
    expect(mails[0]!.parsed.text).toContain(`${texts.labels.state}: ${texts.state.scheduled}`);
    expect(mails[0]!.parsed.html as string).toContain(`<html lang="${lang}">`);
    expect(chats[0]!.body.text).toContain(`<b>${texts.title.scheduled}: +380501234567</b>`);
    expect(chats[0]!.body.text).toContain(texts.open);
  });
});
