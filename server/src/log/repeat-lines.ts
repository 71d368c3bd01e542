// Request lines under a flood. Some answers are cheap to ask for and say nothing new when repeated:
// the widget's status and files, preflights, client errors and refusals (a bad body, a foreign
// origin, a 404, a client over its limit). Anyone can ask for them thousands of times a second, and
// one log line each would turn the relay into an amplifier aimed at its own disk and log bill. For
// those answers the first line of each kind (route, method, status, reason) in a window is written
// as usual; the rest of the window are only counted, and one line with the count closes the window.
// A refusal made after the body was read names the (masked) number refused: its kind is per number,
// so each number under attack still has its own first line and its own count.
// Metrics still count every request.
import { realTimers, type Timers } from '../lib/timers.ts';
import type { Logger } from './logger.ts';

export interface RepeatKind {
  route: string;
  method: string;
  status: number;
  /** The refusal's reason or the error's code. */
  reason?: string;
  /** Fields that split a kind further, named in its summary (the masked number a refusal names). */
  per?: Readonly<Record<string, string>>;
}

export interface RepeatLines {
  /** true: write this request's line; false: it is counted in its kind's summary line. */
  admit(kind: RepeatKind): boolean;
}

export function createRepeatLines(log: Logger, windowMs: number, timers: Timers = realTimers): RepeatLines {
  /**
   * Open windows by kind: route patterns × methods × statuses × reasons, a closed set, and with
   * `per` the numbers refused within one window, which the request rate bounds.
   */
  const open = new Map<string, { count: number }>();
  return {
    admit(kind) {
      if (windowMs === 0) return true;
      let key = `${kind.route} ${kind.method} ${kind.status} ${kind.reason ?? ''}`;
      if (kind.per) for (const name in kind.per) key += ` ${name}=${kind.per[name]}`;
      const window = open.get(key);
      if (window) {
        window.count++;
        return false;
      }
      const fresh = { count: 0 };
      open.set(key, fresh);
      timers.setTimeout(() => {
        open.delete(key);
        if (fresh.count === 0) return;
        const { per, ...named } = kind;
        log.info('repeated requests', { ...named, ...per, more: fresh.count, windowMs });
      }, windowMs);
      return true;
    },
  };
}
