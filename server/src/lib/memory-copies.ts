// What a relay holds in memory about a visitor's number besides its stores: the calls it placed and
// their progress, the call log's recent rows, parsed numbers, limit keys. Each piece that keeps such
// a copy says how to forget one number; a visitor's data erased on request (number-data/) asks them
// all, so no copy outlives the erasure in this process.
export interface ErasedNumber {
  /** +380501234567 */
  e164: string;
  /** Its keyed hash (HMAC-SHA256 with HASH_SECRET), as the stores name it. */
  hash: string;
  /** The requests made with it (callback ids), as the stores knew them before the erasure. */
  callbackIds: ReadonlySet<string>;
}

/** Drops what a copy holds of the number; answers how many entries went. */
export type ForgetNumber = (erased: ErasedNumber) => number;

export interface MemoryCopies {
  /** `name`: what the copy is, as the erasure's answer lists it. */
  hold(name: string, forget: ForgetNumber): void;
  /** Asks every copy; answers how many entries each dropped. */
  forget(erased: ErasedNumber): Record<string, number>;
}

export function createMemoryCopies(): MemoryCopies {
  const copies = new Map<string, ForgetNumber[]>();
  return {
    hold(name, forget) {
      copies.set(name, [...(copies.get(name) ?? []), forget]);
    },
    forget(erased) {
      const dropped: Record<string, number> = {};
      for (const [name, forgets] of copies) dropped[name] = forgets.reduce((n, forget) => n + forget(erased), 0);
      return dropped;
    },
  };
}
