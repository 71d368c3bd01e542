// The notification settings as an operator writes them: both channels read whole, the documented
// defaults, and each mistake stopping startup with one line that names the variable (never echoing
// the SMTP password or the bot token).
import { describe, expect, it } from 'vitest';
import { loadConfig, secretsOf } from '../../../server/src/config/index.ts';
import { configErrorOf as errorOf, testSimulator as sim } from '../../support/config-error.ts';

const TOKEN = '123456789:AAHk-secret_token_value_0123456789';
const email = {
  SMTP_URL: 'smtps://calls%40shop.example:p%40ss-word-9@smtp.shop.example:465',
  NOTIFY_EMAIL_FROM: 'Dialback <calls@shop.example>',
  NOTIFY_EMAIL_TO: 'owner@shop.example, sales@shop.example',
};
const telegram = { TELEGRAM_BOT_TOKEN: TOKEN, TELEGRAM_CHAT_ID: '-1001234567890' };

describe('notification settings', () => {
  it('are off by default, with the documented defaults for what is told', () => {
    const { notify } = loadConfig({}, sim);
    expect(notify).toEqual({ email: null, telegram: null, lang: 'en', on: new Set(['missed', 'failed', 'scheduled', 'queued']), digestAt: null, maskNumber: false });
  });

  it('reads both channels, the language, the steps, the digest time and masking', () => {
    const c = loadConfig(
      { ...email, ...telegram, NOTIFY_LANG: 'uk', NOTIFY_ON: 'missed, failed', NOTIFY_DIGEST_AT: '18:05', NOTIFY_MASK_NUMBER: 'true', TELEGRAM_API_URL: 'http://127.0.0.1:9911/' },
      sim,
    );
    expect(c.notify).toEqual({
      email: { smtpUrl: email.SMTP_URL, from: 'Dialback <calls@shop.example>', to: ['owner@shop.example', 'sales@shop.example'] },
      telegram: { botToken: TOKEN, chatId: '-1001234567890', apiUrl: 'http://127.0.0.1:9911' },
      lang: 'uk',
      on: new Set(['missed', 'failed']),
      digestAt: { hour: 18, minute: 5 },
      maskNumber: true,
    });
    expect(loadConfig(telegram, sim).notify.telegram?.apiUrl).toBe('https://api.telegram.org');
    // The logger never prints the token or the SMTP password, as written or decoded.
    expect(secretsOf(c)).toEqual(expect.arrayContaining([TOKEN, 'p%40ss-word-9', 'p@ss-word-9']));
  });

  it('stops startup with one line naming each mistake', () => {
    expect(errorOf({ SMTP_URL: email.SMTP_URL, NOTIFY_EMAIL_FROM: email.NOTIFY_EMAIL_FROM })).toBe(
      'NOTIFY_EMAIL_TO: required when SMTP_URL is set (a comma list of the addresses to tell)',
    );
    expect(errorOf({ SMTP_URL: email.SMTP_URL, NOTIFY_EMAIL_TO: 'a@b.example' })).toMatch(/^NOTIFY_EMAIL_FROM: required when SMTP_URL is set/);
    expect(errorOf({ NOTIFY_EMAIL_TO: 'a@b.example' })).toMatch(/^SMTP_URL: required when NOTIFY_EMAIL_TO is set/);
    expect(errorOf({ ...email, SMTP_URL: 'https://user:hunter2-secret@smtp.example' })).toBe('SMTP_URL: expected smtp://user:password@host:587 or smtps://user:password@host:465');
    expect(errorOf({ ...email, NOTIFY_EMAIL_TO: 'owner@shop.example, not-an-address' })).toBe('NOTIFY_EMAIL_TO: expected a comma list of email addresses, got "not-an-address"');
    expect(errorOf({ NOTIFY_DIGEST_AT: '25:00' })).toBe('NOTIFY_DIGEST_AT: expected a time of day HH:MM from 00:00 to 23:59, such as 18:00, got "25:00"');
    expect(errorOf({ NOTIFY_DIGEST_AT: '6pm' })).toMatch(/^NOTIFY_DIGEST_AT: expected a time of day HH:MM/);
    expect(errorOf({ NOTIFY_ON: 'missed,answered' })).toBe('NOTIFY_ON: expected a comma list of missed, failed, scheduled, queued, got "answered"');
    expect(errorOf({ NOTIFY_LANG: 'fr' })).toBe('NOTIFY_LANG: expected one of en, uk, ru, pl, de, cs, ro, lt, lv, et, kk or es, got "fr"');
    expect(errorOf({ NOTIFY_MASK_NUMBER: 'maybe' })).toBe('NOTIFY_MASK_NUMBER: expected true or false (or 1/0, yes/no), got "maybe"');
    expect(errorOf({ TELEGRAM_CHAT_ID: '12345' })).toMatch(/^TELEGRAM_BOT_TOKEN: required when TELEGRAM_CHAT_ID is set/);
    expect(errorOf({ TELEGRAM_BOT_TOKEN: TOKEN })).toMatch(/^TELEGRAM_CHAT_ID: required when TELEGRAM_BOT_TOKEN is set/);
    const badToken = errorOf({ ...telegram, TELEGRAM_BOT_TOKEN: 'not a token but secret-ish' });
    expect(badToken).toBe('TELEGRAM_BOT_TOKEN: expected a bot token from @BotFather (digits, a colon, then letters)');
    expect(errorOf({ ...telegram, TELEGRAM_API_URL: 'ftp://api.example' })).toMatch(/^TELEGRAM_API_URL: expected an http\(s\) URL/);
  });
});
