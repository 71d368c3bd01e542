// Timers a test moves on by hand (server/src/lib/timers.ts): `advance(ms)` runs every callback that
// falls due, in time order, including ones they schedule within the same span.
import type { Timers } from '../../server/src/lib/timers.ts';

export interface ManualTimers {
  timers: Timers;
  /** Moves time on by `ms`, running what falls due. */
  advance(ms: number): void;
  /** Callbacks waiting. */
  readonly pending: number;
}

export function createManualTimers(): ManualTimers {
  let now = 0;
  let nextId = 1;
  const due = new Map<number, { at: number; fn: () => void }>();
  return {
    timers: {
      setTimeout(fn, ms) {
        const id = nextId++;
        due.set(id, { at: now + Math.max(0, ms), fn });
        return id;
      },
      clearTimeout(handle) {
        due.delete(handle as number);
      },
    },
    advance(ms) {
      const until = now + ms;
      for (;;) {
        let first: [number, { at: number; fn: () => void }] | undefined;
        for (const entry of due) if (entry[1].at <= until && (!first || entry[1].at < first[1].at)) first = entry;
        if (!first) break;
        due.delete(first[0]);
        now = first[1].at;
        first[1].fn();
      }
      now = until;
    },
    get pending() {
      return due.size;
    },
  };
}
