// The daily digest at NOTIFY_DIGEST_AT (HH:MM in the project's time zone): once that time has
// passed, the 24 hours before it are counted (lead-tally.ts) and one message per channel is put in
// the outbox, under an id made of the day and the channel. The outbox keeps one entry per id, so
// that is the claim on the day: with several relays (one store) the first to enqueue sends it and
// the others find it there; a relay restarted past the time (kill -9 included) finds it missing and
// sends it then; it is never sent twice.
import { createHash } from 'node:crypto';
import { createBackgroundWorker } from '../../lib/background-worker.ts';
import type { Timers } from '../../lib/timers.ts';
import { fromWallClock, localDay, wallClock } from '../../schedule/zoned.ts';
import type { OutboxChannel, WebhookOutbox } from '../outbox.ts';
import type { LeadTally, TallyRow } from './lead-tally.ts';
import type { RenderedMessage } from './notice.ts';
import type { DigestWindow } from './render-digest.ts';

export interface DigestOptions {
  at: { hour: number; minute: number };
  timeZone: string;
  tally: LeadTally;
  outbox: WebhookOutbox;
  channels: readonly OutboxChannel[];
  render: (rows: readonly TallyRow[], window: DigestWindow) => RenderedMessage;
  /** The stored body of a rendered message on a channel. */
  bodyFor: (channel: OutboxChannel, message: RenderedMessage) => string;
  now: () => number;
  timers: Timers;
  /** A digest was enqueued on `channel`: deliver it now. */
  enqueued: (channel: OutboxChannel) => void;
  onError: (err: unknown) => void;
}

export interface Digest {
  /** Enqueues the latest due digest unless it is in the outbox already; the day it covers when this relay enqueued it. */
  runOnce(): Promise<string | null>;
  start(): void;
  stop(): Promise<void>;
}

/** Longest sleep between looks (a clock that jumped, a time zone's DST change). */
const LOOK_MS = 3_600_000;

export const digestId = (day: string, channel: OutboxChannel): string => `ntf_${createHash('sha256').update(`digest\0${day}\0${channel}`).digest('base64url').slice(0, 32)}`;

/** The latest instant at or before `now` whose wall-clock time in `timeZone` is `at`. */
export function latestDigestAt(now: number, at: DigestOptions['at'], timeZone: string): number {
  const w = wallClock(new Date(now), timeZone);
  for (let back = 0; back < 3; back++) {
    const day = new Date(Date.UTC(w.year, w.month - 1, w.day - back));
    const slot = fromWallClock(
      { year: day.getUTCFullYear(), month: day.getUTCMonth() + 1, day: day.getUTCDate(), hour: at.hour, minute: at.minute, second: 0 },
      timeZone,
    ).getTime();
    if (slot <= now) return slot;
  }
  throw new Error('no digest time in the last three days');
}

export function createDigest(o: DigestOptions): Digest {
  let done: number | null = null;

  async function runOnce(): Promise<string | null> {
    const slot = latestDigestAt(o.now(), o.at, o.timeZone);
    if (slot === done) return null;
    const day = localDay(new Date(slot - 1), o.timeZone);
    const missing: OutboxChannel[] = [];
    for (const channel of o.channels) if (!(await o.outbox.get(digestId(day, channel)))) missing.push(channel);
    let sent = 0;
    if (missing.length > 0) {
      const window = { from: latestDigestAt(slot - 1, o.at, o.timeZone), to: slot };
      const message = o.render(await o.tally.count(window.from, window.to), window);
      const now = o.now();
      for (const channel of missing) {
        const fresh = await o.outbox.enqueue(
          { id: digestId(day, channel), channel, type: 'digest', callbackId: `digest:${day}`, numberHash: '', maskedNumber: '', body: o.bodyFor(channel, message) },
          now,
        );
        // Another relay may have enqueued it since the look above: then this one sends nothing.
        if (fresh) {
          sent++;
          o.enqueued(channel);
        }
      }
    }
    done = slot;
    return sent > 0 ? day : null;
  }

  const worker = createBackgroundWorker({
    pass: runOnce,
    nextDelay: () => {
      const now = o.now();
      const next = latestDigestAt(now, o.at, o.timeZone) + 86_400_000;
      return Math.max(1000, Math.min(LOOK_MS, next - now + 1000));
    },
    timers: o.timers,
    onError: o.onError,
  });
  return { runOnce, start: worker.start, stop: worker.stop };
}
