// Refusals remembered in process memory for a moment: asked again within `maxHoldMs` (and never
// past the refusal's own wait), the same refusal is the answer, with the wait left. Only refusals
// are held, never "allowed", so nothing gets through that the limits would refuse; the worst a
// stale entry does is refuse for at most `maxHoldMs` what a refund has just freed, which is why
// refunds forget what they touch. Bounded: at most `maxEntries` keys (lib/recent-cache.ts).
import type { Refusal } from './limit-store.ts';
import { RecentCache } from '../lib/recent-cache.ts';

export interface HeldRefusalOptions {
  /** Longest a refusal is answered from memory (default 3 s). */
  maxHoldMs?: number;
  /** Most keys remembered (default 10,000). */
  maxEntries?: number;
}

interface Held {
  /** When the refusal was made (the caller's clock, ms): a clock that went back asks again. */
  asked: number;
  /** Until when (ms) this answer stands. */
  until: number;
  reason: Refusal['reason'];
  /** When the refusal's wait ends (ms). */
  endsAt: number;
}

export class HeldRefusals {
  private readonly held: RecentCache<string, Held>;
  private readonly maxHoldMs: number;

  constructor(options: HeldRefusalOptions = {}) {
    this.held = new RecentCache(options.maxEntries ?? 10_000);
    this.maxHoldMs = options.maxHoldMs ?? 3_000;
  }

  /** The refusal held for `key` at `at`, with the wait left, or null. */
  get(key: string, at: number): Refusal | null {
    const hit = this.held.get(key);
    if (!hit || at >= hit.until || at < hit.asked) return null;
    return { reason: hit.reason, retryAfter: Math.max(1, Math.ceil((hit.endsAt - at) / 1000)) };
  }

  /** Holds `refusal`, made at `at`, for each of `keys`. */
  hold(keys: readonly string[], refusal: Refusal, at: number): void {
    // retryAfter is whole seconds rounded up: hold one second less, so a held refusal never
    // outlives the limit's own.
    const until = at + Math.min(this.maxHoldMs, (refusal.retryAfter - 1) * 1000);
    if (until <= at) return;
    const entry: Held = { asked: at, until, reason: refusal.reason, endsAt: at + refusal.retryAfter * 1000 };
    for (const key of keys) this.held.set(key, entry);
  }

  forget(key: string): void {
    this.held.delete(key);
  }

  /** Keys held now, expired or not (at most `maxEntries`). */
  get size(): number {
    return this.held.size;
  }
}
