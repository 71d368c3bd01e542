// What several relays share beyond the stores' records: one relay polls the service for a value and
// the others read it, and the site breaker's "open" state. Null with the embedded store (one relay's
// memory is the whole truth); with REDIS_URL, redis-shared-state.ts. Every method is best effort and
// never throws, and none decides whether a call is placed. Why: shared-state/README.md.

export interface SharedPoll<T> {
  /**
   * The value some relay fetched at most `freshMs` ago, or `fetch()`'s result when this relay won
   * the right to poll (a lock held for `freshMs`), or null when another relay is polling right now
   * and nothing fresh is stored yet (the caller waits a little or uses what it had).
   */
  get(fetch: () => Promise<T>): Promise<{ value: T; fetchedAt: number } | null>;
  /** Drops the stored value (it may hold an erased number): the next get polls again. Throws when the shared store cannot. */
  forget(): Promise<void>;
}

export interface SharedState {
  /** A value polled by one relay at a time, stored for `freshMs` (`name` is a fixed word, e.g. 'sipstatus'). */
  poll<T>(name: string, freshMs: number): SharedPoll<T>;
  /**
   * Marks `site`'s `window` breaker open for `ttlMs`; true only for the first relay to open it
   * (that one logs the ALERT). False also when the shared store cannot answer (then the caller
   * decides by its own memory).
   */
  openBreaker(site: string, window: string, ttlMs: number): Promise<boolean | null>;
  /** Closes it; true only for the relay that closed it (that one logs it). */
  closeBreaker(site: string): Promise<boolean | null>;
  /**
   * Lowers the mark `name` to `at` when it is later or unset (it lives `ttlMs` from when it was
   * set), and answers the mark: the earliest moment any relay asked about (the call-log window).
   * null when the shared store cannot answer.
   */
  keepEarliest(name: string, at: number, ttlMs: number): Promise<number | null>;
  /**
   * Adds `note` to the notes `name` (a fixed word), kept `ttlMs` for every relay to read (erasure
   * notices, erasure-notices.ts). Unlike the rest, it throws when the shared store cannot take it:
   * the caller must know that the other relays were not told.
   */
  addNote(name: string, note: string, ttlMs: number): Promise<void>;
  /** The notes of `name` still kept, oldest first; [] when the shared store cannot answer. */
  notes(name: string): Promise<string[]>;
  /** Whether the shared store answers now (for /readyz). */
  readonly ready: boolean;
}
