// This relay's copy of the subjects Redis holds blocked (blocks.lua): the look before a request's body
// (Limiter.blockedClient) is answered from it with no round trip while it is fresh, and asks Redis as
// before when it is not. Under a flood from ever-new addresses that look was a Redis call for every
// request. How it stays in step, when it steps aside, and what it costs: limits/README.md.
import { realTimers, type Timers } from '../../lib/timers.ts';

export interface BlockedCopyOptions {
  /** Runs BLOCKS_SINCE with the seq the copy has (-1: none, the whole set) and the most subjects a copy holds. */
  read(sinceSeq: number, maxSubjects: number): Promise<unknown>;
  timers?: Timers;
  /** A clock that only goes forward, in ms, for the copy's age (not the limiter's clock, which tests move). */
  monotonic?: () => number;
  /** Between the end of one poll and the next (default 100 ms). */
  pollMs?: number;
  /** Every this many polls, the whole set (default 100: 10 s). */
  fullEvery?: number;
  /** Oldest a copy may be and still answer (default 1,000 ms). */
  maxAgeMs?: number;
  /** Most subjects a copy holds; over that it steps aside (default 100,000: ~10 MB of heap, 94 B a subject). */
  maxSubjects?: number;
}

/** A subject's rules that refuse it: rule index (1-based) → the epoch second it frees. */
type Blocks = Map<number, number>;

export interface BlockedCopy {
  /** Whether the copy may answer now. */
  fresh(): boolean;
  /** The rules refusing the subject "<table>:<16 hex>" at `nowSec`: [rule index, seconds left]; empty when none. */
  blocked(name: string, nowSec: number): ReadonlyArray<readonly [number, number]>;
  /** Changes a write script of this relay made ("<seq>|<name>|<rule>|<frees at>"), counted at once. */
  took(changes: readonly string[]): void;
  /** Polls now; resolves when answered (or failed). */
  refresh(): Promise<void>;
  /** Subjects held (tests, /metrics). */
  readonly size: number;
  /** Milliseconds since the last answered poll was sent (Infinity before the first): over `maxAgeMs`, the copy does not answer. */
  age(): number;
  stop(): void;
}

/** What `blocked` answers for a subject the copy does not hold: the look at a new client, every request of a flood. */
const NONE: ReadonlyArray<readonly [number, number]> = [];

export function createBlockedCopy(options: BlockedCopyOptions): BlockedCopy {
  const timers = options.timers ?? realTimers;
  const monotonic = options.monotonic ?? (() => performance.now());
  const pollMs = options.pollMs ?? 100;
  const fullEvery = options.fullEvery ?? 100;
  const maxAgeMs = options.maxAgeMs ?? 1_000;
  const maxSubjects = options.maxSubjects ?? 100_000;

  let subjects = new Map<string, Blocks>();
  let seq = -1;
  let answeredAt = Number.NEGATIVE_INFINITY;
  let polls = 0;
  let stopped = false;
  let timer: unknown = null;
  let polling: Promise<void> | null = null;
  /** This relay's own changes newer than the copy's seq: applied again after every poll, in order. */
  let ahead: Array<[number, string, number, number]> = [];

  function set(into: Map<string, Blocks>, name: string, rule: number, freesAt: number): void {
    let blocks = into.get(name);
    if (freesAt === 0) {
      blocks?.delete(rule);
      if (blocks?.size === 0) into.delete(name);
      return;
    }
    if (blocks === undefined) {
      blocks = new Map();
      into.set(name, blocks);
    }
    blocks.set(rule, freesAt);
  }

  function parse(entry: string): [number, string, number, number] | null {
    const [s, name, rule, freesAt] = entry.split('|');
    if (s === undefined || name === undefined || rule === undefined || freesAt === undefined) return null;
    return [Number(s), name, Number(rule), Number(freesAt)];
  }

  async function poll(): Promise<void> {
    const whole = seq < 0 || ++polls % fullEvery === 0;
    const sentAt = monotonic();
    const reply = (await options.read(whole ? -1 : seq, maxSubjects)) as [number, string[]?, number?];
    const mode = Number(reply[2]);
    if (mode === 2) return stepAside();
    const listed = reply[1] ?? [];
    if (mode === 1) {
      const fresh = new Map<string, Blocks>();
      for (let i = 0; i + 1 < listed.length; i += 2) {
        const [name, rule] = listed[i]!.split('|');
        if (name !== undefined && rule !== undefined) set(fresh, name, Number(rule), Number(listed[i + 1]));
      }
      subjects = fresh;
    } else {
      for (const entry of listed) {
        const change = parse(entry);
        if (change) set(subjects, change[1], change[2], change[3]);
      }
    }
    seq = Number(reply[0]);
    ahead = ahead.filter((change) => change[0] > seq);
    for (const change of ahead) set(subjects, change[1], change[2], change[3]);
    if (subjects.size > maxSubjects) return stepAside();
    answeredAt = sentAt;
  }

  /** Too many to hold: nothing kept, nothing answered; the next poll asks for the whole set again. */
  function stepAside(): void {
    subjects = new Map();
    ahead = [];
    seq = -1;
    answeredAt = Number.NEGATIVE_INFINITY;
  }

  function refresh(): Promise<void> {
    polling ??= poll()
      // A failed poll only lets the copy age: past maxAgeMs the look asks Redis, which reports the failure.
      .catch(() => undefined)
      .finally(() => {
        polling = null;
      });
    return polling;
  }

  function schedule(): void {
    if (stopped) return;
    timer = timers.setTimeout(() => {
      timer = null;
      void refresh().then(schedule);
    }, pollMs);
  }

  void refresh().then(schedule);

  const age = () => monotonic() - answeredAt;

  return {
    fresh: () => age() <= maxAgeMs,
    blocked(name, nowSec) {
      const blocks = subjects.get(name);
      if (blocks === undefined) return NONE;
      const found: Array<[number, number]> = [];
      for (const [rule, freesAt] of blocks) if (freesAt > nowSec) found.push([rule, freesAt - nowSec]);
      return found;
    },
    took(changes) {
      for (const entry of changes) {
        const change = parse(entry);
        if (change === null || change[0] <= seq) continue;
        ahead.push(change);
        set(subjects, change[1], change[2], change[3]);
      }
    },
    refresh,
    get size() {
      return subjects.size;
    },
    age,
    stop() {
      stopped = true;
      if (timer !== null) timers.clearTimeout(timer);
      timer = null;
    },
  };
}
