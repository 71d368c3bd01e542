// The people's channels, for real, on 127.0.0.1 port 0: an SMTP server (the smtp-server package)
// that takes mail with a login and keeps each message parsed by mailparser, and a fake of
// Telegram's Bot API (node:http) that records every sendMessage and answers each with the next
// scripted reply — 200, a 429 with retry_after, a 500.
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { simpleParser, type ParsedMail } from 'mailparser';
import { SMTPServer } from 'smtp-server';
import { listen, type Listening } from './listen.ts';

export const SMTP_USER = 'relay@shop.example';
export const SMTP_PASSWORD = 'smtp-pass-word-0123456789';
export const BOT_TOKEN = '123456789:AAF-test_bot_token_0123456789abcdef';
export const CHAT_ID = '-1001234567890';

export interface Mail {
  envelope: { from: string; to: string[] };
  parsed: ParsedMail;
}

export interface SmtpReceiver {
  url: string;
  mails: Mail[];
  /** Refuse (451) the next `n` messages: a mail server in trouble. */
  refuseNext(n: number): void;
  close(): Promise<void>;
}

export async function startSmtp(): Promise<SmtpReceiver> {
  const mails: Mail[] = [];
  let refuse = 0;
  const server = new SMTPServer({
    // Plain SMTP on loopback with a login, as smtp://user:password@host:port gives it.
    disabledCommands: ['STARTTLS'],
    allowInsecureAuth: true,
    logger: false,
    onAuth(auth, _session, callback) {
      if (auth.username === SMTP_USER && auth.password === SMTP_PASSWORD) callback(null, { user: auth.username });
      else callback(new Error('Invalid username or password'));
    },
    onData(stream, session, callback) {
      const chunks: Buffer[] = [];
      stream.on('data', (c: Buffer) => chunks.push(c));
      stream.on('end', () => {
        if (refuse > 0) {
          refuse--;
          callback(Object.assign(new Error('Try again later'), { responseCode: 451 }));
          return;
        }
        void simpleParser(Buffer.concat(chunks)).then((parsed) => {
          const from = session.envelope.mailFrom;
          mails.push({ envelope: { from: from ? from.address : '', to: session.envelope.rcptTo.map((r) => r.address) }, parsed });
          callback();
        }, callback);
      });
    },
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', () => resolve()));
  const { port } = server.server.address() as AddressInfo;
  return {
    url: `smtp://${encodeURIComponent(SMTP_USER)}:${SMTP_PASSWORD}@127.0.0.1:${port}`,
    mails,
    refuseNext(n) {
      refuse = n;
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

export interface SentMessage {
  path: string;
  body: { chat_id: string; text: string; parse_mode: string; link_preview_options?: unknown };
}

export interface FakeTelegram extends Listening {
  /** Every sendMessage received, answered or not. */
  requests: SentMessage[];
  /** The ones answered 200. */
  delivered: SentMessage[];
  /** The statuses of the next answers (200, 429, 500, or 0: never answer); 200 once they are used up. */
  script: number[];
}

export async function startFakeTelegram(retryAfterSeconds = 3): Promise<FakeTelegram> {
  const requests: SentMessage[] = [];
  const delivered: SentMessage[] = [];
  const script: number[] = [];
  const server = createServer((req, res) => {
    let raw = '';
    req.on('data', (c: Buffer) => (raw += c.toString()));
    req.on('end', () => {
      const message = { path: req.url ?? '', body: JSON.parse(raw) as SentMessage['body'] };
      requests.push(message);
      const status = script.shift() ?? 200;
      if (status === 0) return; // hangs: a relay killed while waiting for the answer
      const answer =
        status === 200
          ? { ok: true, result: { message_id: requests.length, chat: { id: Number(message.body.chat_id) }, text: message.body.text } }
          : status === 429
            ? { ok: false, error_code: 429, description: `Too Many Requests: retry after ${retryAfterSeconds}`, parameters: { retry_after: retryAfterSeconds } }
            : { ok: false, error_code: status, description: 'Internal Server Error' };
      if (status === 200 && message.path === `/bot${BOT_TOKEN}/sendMessage`) delivered.push(message);
      res.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify(answer));
    });
  });
  return Object.assign(await listen(server), { requests, delivered, script });
}

/** The relay's settings for both channels, pointing at these receivers. */
export const notifyEnv = (smtp: SmtpReceiver, telegram: FakeTelegram, more: Record<string, string> = {}) => ({
  SMTP_URL: smtp.url,
  NOTIFY_EMAIL_FROM: 'Dialback <calls@shop.example>',
  NOTIFY_EMAIL_TO: 'owner@shop.example,sales@shop.example',
  TELEGRAM_BOT_TOKEN: BOT_TOKEN,
  TELEGRAM_CHAT_ID: CHAT_ID,
  TELEGRAM_API_URL: telegram.url,
  PUBLIC_URL: 'https://calls.shop.example',
  ...more,
});

/** A service nobody listens at: for relays in these tests that only tell and never place a call. */
export const NO_SERVICE_ENV = {
  CALLTRACKING_BASE_URL: 'http://127.0.0.1:9',
  CALLTRACKING_AUTH_KEY: 'sim-auth-key-0123456789',
  CALLTRACKING_PROJECT_ID: '100500',
  CALLBACK_CALLER: '380441112233',
};
