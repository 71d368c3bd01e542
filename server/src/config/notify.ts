// Notifications to people (webhooks/notify/): email through an SMTP server and Telegram through a
// bot, the steps they are told of, the daily digest and whether numbers are masked. Each channel is
// all or nothing: SMTP_URL with NOTIFY_EMAIL_FROM and NOTIFY_EMAIL_TO, TELEGRAM_BOT_TOKEN with
// TELEGRAM_CHAT_ID. Neither channel: no notification is built or stored.
import { type EnvReader, requiredError } from './env.ts';
import { parseUrl } from './env-values.ts';

/** The owner's languages: the widget's twelve. */
export const NOTIFY_LANGUAGES = ['en', 'uk', 'ru', 'pl', 'de', 'cs', 'ro', 'lt', 'lv', 'et', 'kk', 'es'] as const;
export type NotifyLanguage = (typeof NOTIFY_LANGUAGES)[number];

/** The steps a person can be told of: nobody answered (after the re-dials), failed, booked, held through an outage. */
export const NOTIFY_EVENTS = ['missed', 'failed', 'scheduled', 'queued'] as const;
export type NotifyEvent = (typeof NOTIFY_EVENTS)[number];

export interface EmailSettings {
  /** smtp:// or smtps://, user and password in it: a secret. */
  smtpUrl: string;
  from: string;
  to: readonly string[];
}

export interface TelegramSettings {
  /** A secret: it is in every request's path. */
  botToken: string;
  chatId: string;
  apiUrl: string;
}

export interface NotifySettings {
  email: EmailSettings | null;
  telegram: TelegramSettings | null;
  lang: NotifyLanguage;
  on: ReadonlySet<NotifyEvent>;
  /** The daily digest's time of day in the project's time zone; null: no digest. */
  digestAt: { hour: number; minute: number } | null;
  /** true: messages carry the masked number, as the owner view shows it. */
  maskNumber: boolean;
}

const ADDRESS = /^[^\s@<>",;]+@[^\s@<>",;]+\.[^\s@<>",;]+$/;
// A sender may carry a display name: `Dialback <calls@shop.example>`.
const SENDER = /^(?:[^<>"\r\n]*<[^\s@<>",;]+@[^\s@<>",;]+\.[^\s@<>",;]+>|[^\s@<>",;]+@[^\s@<>",;]+\.[^\s@<>",;]+)$/;

export function readNotify(env: EnvReader): NotifySettings {
  return {
    email: readEmail(env),
    telegram: readTelegram(env),
    lang: env.oneOf('NOTIFY_LANG', NOTIFY_LANGUAGES) ?? 'en',
    on: new Set(
      env.list('NOTIFY_ON', (name) => (NOTIFY_EVENTS.includes(name as NotifyEvent) ? (name as NotifyEvent) : null), `a comma list of ${NOTIFY_EVENTS.join(', ')}`) ?? NOTIFY_EVENTS,
    ),
    digestAt: env.parsed('NOTIFY_DIGEST_AT', parseTimeOfDay, 'a time of day HH:MM such as 18:00') ?? null,
    maskNumber: env.flag('NOTIFY_MASK_NUMBER') ?? false,
  };
}

function readEmail(env: EnvReader): EmailSettings | null {
  const smtpUrl = env.text('SMTP_URL', {
    check: (value) => ['smtp:', 'smtps:'].includes(parseUrl(value)?.protocol ?? '') && !!parseUrl(value)?.hostname,
    expected: 'smtp://user:password@host:587 or smtps://user:password@host:465',
    secret: true,
  });
  const from = env.text('NOTIFY_EMAIL_FROM', { pattern: SENDER, expected: 'an email address such as calls@shop.example (or "Name <calls@shop.example>")' });
  const to = env.list('NOTIFY_EMAIL_TO', (item) => (ADDRESS.test(item) ? item : null), 'a comma list of email addresses');
  if (!smtpUrl && !from && !to) return null;
  if (!smtpUrl) throw requiredError('SMTP_URL', `when ${from ? 'NOTIFY_EMAIL_FROM' : 'NOTIFY_EMAIL_TO'} is set (smtp://user:password@host:587 or smtps://…:465)`);
  if (!to) throw requiredError('NOTIFY_EMAIL_TO', 'when SMTP_URL is set (a comma list of the addresses to tell)');
  if (!from) throw requiredError('NOTIFY_EMAIL_FROM', 'when SMTP_URL is set (the sender address, e.g. calls@shop.example)');
  return { smtpUrl, from, to };
}

function readTelegram(env: EnvReader): TelegramSettings | null {
  const botToken = env.text('TELEGRAM_BOT_TOKEN', {
    pattern: /^\d{3,20}:[A-Za-z0-9_-]{20,}$/,
    expected: 'a bot token from @BotFather (digits, a colon, then letters)',
    secret: true,
  });
  const chatId = env.text('TELEGRAM_CHAT_ID', { pattern: /^(?:-?\d{1,20}|@[A-Za-z][A-Za-z0-9_]{4,31})$/, expected: 'a chat id (digits, negative for groups) or @channelname' });
  const apiUrl = env.url('TELEGRAM_API_URL', 'http') ?? 'https://api.telegram.org';
  if (!botToken && !chatId) return null;
  if (!botToken) throw requiredError('TELEGRAM_BOT_TOKEN', 'when TELEGRAM_CHAT_ID is set (the token @BotFather gave)');
  if (!chatId) throw requiredError('TELEGRAM_CHAT_ID', 'when TELEGRAM_BOT_TOKEN is set (the chat the bot writes to)');
  return { botToken, chatId, apiUrl: apiUrl.replace(/\/+$/, '') };
}

function parseTimeOfDay(value: string): { hour: number; minute: number } {
  const m = /^([01]\d|2[0-3]):([0-5]\d)$/.exec(value.trim());
  if (!m) throw new Error(`expected a time of day HH:MM from 00:00 to 23:59, such as 18:00, got ${JSON.stringify(value)}`);
  return { hour: Number(m[1]), minute: Number(m[2]) };
}

/** The secrets of these settings, for the logger: the bot token, and the SMTP password as written and decoded. */
export function notifySecrets(settings: NotifySettings): string[] {
  const url = settings.email && URL.parse(settings.email.smtpUrl);
  const password = url?.password ?? '';
  let decoded = password;
  try {
    decoded = decodeURIComponent(password);
  } catch {}
  return [settings.telegram?.botToken, password, decoded].filter((s): s is string => !!s);
}
