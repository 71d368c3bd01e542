// Request lines under a flood: answers that are cheap to ask for and say nothing new when repeated
// (status, files, preflights, client errors, refusals) log the first line of each kind in a window and
// count the rest into one closing line, so the relay is no amplifier aimed at its own disk. A refusal's
// kind is per (masked) number. Details: log/README.md.
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
