// The email channel: each stored message (subject, text and HTML parts) sent through SMTP_URL with
// nodemailer to NOTIFY_EMAIL_TO. The URL (user and password) is given to nodemailer only; a failed
// attempt is described by nodemailer's error code and the server's reply code, never by the URL.
import { createTransport } from 'nodemailer';
import type { EmailSettings } from '../../config/notify.ts';
import type { SendResult } from '../outbox-delivery.ts';

export interface StoredEmail {
  subject: string;
  text: string;
  html: string;
}

export interface EmailSender {
  send(body: string): Promise<SendResult>;
  close(): void;
}

export function createEmailSender(settings: EmailSettings, timeoutMs: number): EmailSender {
  const transport = createTransport({ url: settings.smtpUrl, connectionTimeout: timeoutMs, greetingTimeout: timeoutMs, socketTimeout: timeoutMs });
  return {
    async send(body) {
      const mail = JSON.parse(body) as StoredEmail;
      try {
        const info = await transport.sendMail({
          from: settings.from,
          to: [...settings.to],
          subject: mail.subject,
          text: mail.text,
          html: mail.html,
          // The parts are ours; nothing in them is a file or a URL to fetch.
          disableFileAccess: true,
          disableUrlAccess: true,
        });
        if (info.accepted.length === 0) return { ok: false, error: 'every recipient refused' };
        return { ok: true };
      } catch (err) {
        const e = err as Error & { code?: string; responseCode?: number };
        return { ok: false, ...(e.responseCode && { status: e.responseCode }), error: `SMTP ${e.code ?? e.name}${e.responseCode ? ` ${e.responseCode}` : ''}` };
      }
    },
    close: () => transport.close(),
  };
}
