// The notifications' metrics, in the relay's registry: the backlog per channel (entries waiting in
// the outbox, read from the store at each scrape, so every relay reports the shared backlog), and
// what became of each attempt. An alert on a growing backlog or on failures catches a channel that
// stopped working (a revoked bot token, a changed SMTP password) before the owner misses a lead.
import type { Registry } from '../../metrics/registry.ts';
import type { DeliveryReport } from '../outbox-delivery.ts';
import type { OutboxChannel, WebhookOutbox } from '../outbox.ts';

export function notifyMetrics(registry: Registry, outbox: WebhookOutbox, channels: readonly OutboxChannel[]): (r: DeliveryReport) => void {
  const pending = registry.gauge('dialback_notify_pending', 'Notifications waiting in the outbox to be delivered (new, or retrying), by channel.', ['channel']);
  const sent = registry.counter('dialback_notify_sent_total', 'Notifications delivered, by channel.', ['channel']);
  const failures = registry.counter('dialback_notify_failures_total', 'Failed attempts to deliver a notification (each is retried with backoff for 24 h), by channel.', [
    'channel',
  ]);
  const gaveUp = registry.counter('dialback_notify_gave_up_total', 'Notifications given up after 24 h of failed attempts, by channel.', ['channel']);
  registry.onCollect(async () => {
    for (const channel of channels) {
      // A store that cannot answer leaves the last value: the failures counter tells the rest.
      const count = await outbox.pendingCount(channel).catch(() => null);
      if (count !== null) pending.set(count, { channel });
    }
  });
  return (r) => {
    const labels = { channel: r.channel };
    if (r.outcome === 'delivered') sent.inc(labels);
    else failures.inc(labels);
    if (r.outcome === 'gave_up') gaveUp.inc(labels);
  };
}
