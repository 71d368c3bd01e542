// The refused requests' strikes, gathered in the relay's memory and written to Redis together (one
// strike-each.lua) at most `flushMs` after the first, or at once when `maxRecords` records hold some:
// under a flood from ever-new addresses, a few scripts a second instead of one per turn, and one
// network's strikes summed. A strike only brings a block closer; what holding it changes:
// limits/README.md.
import { realTimers, type Timers } from '../../lib/timers.ts';

/** One record's strikes not yet written: its rules (a spec, limit-scripts.ts) and its "<now>:<n>" groups. */
export interface HeldStrikes {
  key: string;
  spec: string;
  /** "<now>:<n>,…" in the order taken: what STRIKE_EACH and PEEK_EACH count in. */
  pending: string;
}

export interface StrikeBufferOptions {
  /** Writes one flush's strikes (rejects when Redis did not take them). */
  write(records: HeldStrikes[]): Promise<unknown>;
  /** Longest a strike waits in memory. */
  flushMs: number;
  /** Records held at which the strikes go at once (keeps each script short). */
  maxRecords: number;
  timers?: Timers;
}

interface Held {
  spec: string;
  /** Pairs of epoch seconds and strikes at that second, oldest first. */
  groups: number[];
}

interface Generation {
  records: Map<string, Held>;
  /** Settles when this generation's write is answered; every strike of it gets it. */
  written: Promise<void>;
  settle(err?: unknown): void;
  timer: unknown;
}

const pendingOf = (held: Held): string => {
  let out = '';
  for (let i = 0; i < held.groups.length; i += 2) out += `${out ? ',' : ''}${held.groups[i]}:${held.groups[i + 1]}`;
  return out;
};

export function createStrikeBuffer(options: StrikeBufferOptions) {
  const timers = options.timers ?? realTimers;
  let current: Generation | null = null;
  /** Writes under way: `close` waits for them. */
  const writing = new Set<Promise<void>>();

  function flush(): Promise<void> {
    const generation = current;
    if (generation === null) return Promise.resolve();
    current = null;
    timers.clearTimeout(generation.timer);
    const records = [...generation.records].map(([key, held]) => ({ key, spec: held.spec, pending: pendingOf(held) }));
    // Sent now, in this tick: every later command on the connection (a look, a consume) comes after it.
    const write = options.write(records).then(
      () => generation.settle(),
      (err: unknown) => generation.settle(err ?? new Error('strikes not written')),
    );
    writing.add(write);
    void write.finally(() => writing.delete(write));
    return write;
  }

  return {
    /** One strike against `key` (rules `spec`) at `nowSec`; settles when it is written (or not). */
    add(key: string, spec: string, nowSec: number): Promise<void> {
      if (current === null) {
        let settle: Generation['settle'] = () => undefined;
        const written = new Promise<void>((resolve, reject) => {
          settle = (err) => (err === undefined ? resolve() : reject(err));
        });
        written.catch(() => undefined); // every caller gets it; none must be an unhandled rejection
        current = { records: new Map(), written, settle, timer: timers.setTimeout(() => void flush(), options.flushMs) };
      }
      const generation = current;
      const held = generation.records.get(key);
      if (held === undefined) generation.records.set(key, { spec, groups: [nowSec, 1] });
      else if (held.groups[held.groups.length - 2] === nowSec) held.groups[held.groups.length - 1]! += 1;
      else held.groups.push(nowSec, 1);
      if (generation.records.size >= options.maxRecords) void flush();
      return generation.written;
    },
    /** The strikes held for `key`, as PEEK_EACH counts them in ("" when none). */
    pending(key: string): string {
      const held = current?.records.get(key);
      return held === undefined ? '' : pendingOf(held);
    },
    holds(key: string): boolean {
      return current?.records.has(key) ?? false;
    },
    /** How many strikes are held for `key` (0 when none). */
    heldCount(key: string): number {
      const held = current?.records.get(key);
      let n = 0;
      if (held !== undefined) for (let i = 1; i < held.groups.length; i += 2) n += held.groups[i]!;
      return n;
    },
    flush,
    /** Writes what is held and waits for every write under way to be answered (errors are the callers'). */
    async drain(): Promise<void> {
      void flush();
      await Promise.allSettled([...writing]);
    },
  };
}

export type StrikeBuffer = ReturnType<typeof createStrikeBuffer>;
