// Notifications to people, assembled: what the lifecycle tells (callback/listeners/lead-notifications.ts)
// becomes one message per channel in the durable outbox, under a stable id (the lead, the step, the
// channel: a step told twice is kept once), and each channel's own delivery worker sends it —
// email (email-sender.ts) and Telegram (telegram-sender.ts) each claim only their own entries, so
// one failing channel holds the other back in no way. The daily digest (digest.ts) counts what
// the lead tally kept. Without a channel configured there is no notifier at all: nothing is stored.
import { createHash } from 'node:crypto';
import type { NotifySettings } from '../../config/notify.ts';
import type { Logger } from '../../log/index.ts';
import type { Registry } from '../../metrics/registry.ts';
import type { Timers } from '../../lib/timers.ts';
import { createOutboxDelivery, type DeliveryReport, type DeliveryTiming, type SendResult, type WebhookDelivery } from '../outbox-delivery.ts';
import type { OutboxChannel, WebhookOutbox } from '../outbox.ts';
import { catalogs } from './catalog/index.ts';
import { createDigest, type Digest } from './digest.ts';
import { createEmailSender } from './email-sender.ts';
import type { LeadTally, TalliedLead } from './lead-tally.ts';
import type { LeadNotice, RenderedMessage } from './notice.ts';
import { notifyMetrics } from './notify-metrics.ts';
import { renderDigest } from './render-digest.ts';
import { renderLead } from './render-lead.ts';
import { createTelegramSender } from './telegram-sender.ts';

export interface NotifierDeps {
  settings: NotifySettings;
  /** The project's time zone: every time in a message is in it, and named. */
  timeZone: string;
  /** PUBLIC_URL: the owner view's links start with it. */
  publicUrl: string;
  outbox: WebhookOutbox;
  tally: LeadTally;
  /** This relay's id: who holds the lease of an attempt. */
  owner: string;
  now: () => number;
  timers: Timers;
  log: Logger;
  registry: Registry;
  /** Telegram's HTTP client (tests pass none: the real fetch, against a local fake). */
  fetch?: typeof fetch;
  /** Retry timing and jitter, for tests. */
  timing?: Omit<DeliveryTiming, 'clock' | 'report'>;
}

export interface Notifier {
  /** Whether a placed call must be followed to its outcome: a miss to tell, or a digest to count. */
  followsOutcomes: boolean;
  /** Tells of a lead's step when NOTIFY_ON names it; never throws (a lost message is logged). */
  tell(notice: LeadNotice): Promise<void>;
  /** Keeps the lead's standing for the digest (when there is one); never throws. */
  tally(lead: TalliedLead): Promise<void>;
  /** One delivery worker per configured channel. */
  deliveries: ReadonlyMap<OutboxChannel, WebhookDelivery>;
  digest: Digest | null;
  start(): void;
  stop(): Promise<void>;
}

const bodyFor = (channel: OutboxChannel, m: RenderedMessage): string =>
  JSON.stringify(channel === 'email' ? { subject: m.subject, text: m.text, html: m.html } : { text: m.telegram });

export const noticeId = (callbackId: string, kind: string, channel: OutboxChannel): string =>
  `ntf_${createHash('sha256').update(`${callbackId}\0${kind}\0${channel}`).digest('base64url').slice(0, 32)}`;

export function createNotifier(deps: NotifierDeps): Notifier | null {
  const { settings, outbox, log } = deps;
  const texts = catalogs[settings.lang];
  const timeoutMs = deps.timing?.timeoutMs ?? 10_000;
  const email = settings.email && createEmailSender(settings.email, timeoutMs);
  const senders = new Map<OutboxChannel, (body: string, signal: AbortSignal) => Promise<SendResult>>();
  if (email) senders.set('email', (body) => email.send(body));
  if (settings.telegram) senders.set('telegram', createTelegramSender(settings.telegram, deps.fetch));
  if (senders.size === 0) return null;
  const channels = [...senders.keys()];

  const count = notifyMetrics(deps.registry, outbox, channels);
  const report = (r: DeliveryReport) => {
    count(r);
    log[r.outcome === 'delivered' ? 'info' : 'warn']('notification', { ...r });
  };
  const clock = { now: deps.now, setTimeout: deps.timers.setTimeout, clearTimeout: deps.timers.clearTimeout };
  const deliveries = new Map(
    [...senders].map(
      ([channel, send]) =>
        [channel, createOutboxDelivery({ ...deps.timing, outbox, channel, owner: deps.owner, clock, report, send: (entry, signal) => send(entry.body, signal) })] as const,
    ),
  );
  const render = { texts, timeZone: deps.timeZone, publicUrl: deps.publicUrl, maskNumber: settings.maskNumber };
  const ownerUrl = `${deps.publicUrl.replace(/\/+$/, '')}/owner`;

  const digest =
    settings.digestAt &&
    createDigest({
      at: settings.digestAt,
      timeZone: deps.timeZone,
      tally: deps.tally,
      outbox,
      channels,
      render: (rows, window) => renderDigest(rows, window, texts, deps.timeZone, ownerUrl),
      bodyFor,
      now: deps.now,
      timers: deps.timers,
      enqueued: (channel) => deliveries.get(channel)?.notify(),
      onError: (err) => log.error('daily digest not enqueued', { err }),
    });

  return {
    followsOutcomes: settings.on.has('missed') || digest !== null,
    async tell(notice) {
      if (!settings.on.has(notice.kind)) return;
      const message = renderLead(notice, render);
      const now = deps.now();
      for (const channel of channels) {
        const id = noticeId(notice.callbackId, notice.kind, channel);
        try {
          const fresh = await outbox.enqueue(
            { id, channel, type: notice.kind, callbackId: notice.callbackId, numberHash: notice.numberHash, maskedNumber: notice.maskedNumber, body: bodyFor(channel, message) },
            now,
          );
          if (fresh) deliveries.get(channel)!.notify();
        } catch (err) {
          log.error('notification not stored', { err, channel, kind: notice.kind, callbackId: notice.callbackId, eventId: id });
        }
      }
    },
    async tally(lead) {
      if (!digest) return;
      try {
        await deps.tally.record(lead, deps.now());
      } catch (err) {
        log.error('lead not counted for the digest', { err, callbackId: lead.callbackId });
      }
    },
    deliveries,
    digest,
    start() {
      for (const d of deliveries.values()) d.start();
      digest?.start();
    },
    async stop() {
      await digest?.stop();
      await Promise.all([...deliveries.values()].map((d) => d.stop()));
      email?.close();
    },
  };
}
