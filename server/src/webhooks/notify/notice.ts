// What a person is told of one lead: the lifecycle's step as the notifications need it (the
// lifecycle builds it: callback/listeners/lead-notifications.ts), and the rendered message each channel
// sends. The full number is here because the owner's own channel is where a person calls back from.
import type { NotifyEvent } from '../../config/notify.ts';
import type { Attribution } from '../../contract/contract.ts';

export interface LeadNotice {
  kind: NotifyEvent;
  callbackId: string;
  /** When the step happened, ms since the epoch. */
  at: number;
  e164: string;
  /** As the owner view shows it: `+380 50 *** **67`. */
  maskedNumber: string;
  numberHash: string;
  /** The department the visitor chose, when the site has several. */
  department: string | null;
  attribution: Attribution;
  pageUrl: string | null;
  /** A booking's time. */
  scheduledFor: number | null;
  /** Why it failed (an error code). */
  reason: string | null;
}

/** One message, rendered once for every channel: the email's subject, text and HTML parts, Telegram's HTML text. */
export interface RenderedMessage {
  subject: string;
  text: string;
  html: string;
  telegram: string;
}
