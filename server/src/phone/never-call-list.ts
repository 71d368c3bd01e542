// The owner's never-call list: numbers the owner asked never to be called again ("never call this
// number" in the owner view). Kept as keyed hashes (HMAC with HASH_SECRET, as consent records and
// jobs name a number), so the list itself holds no number; a request for a listed number is
// refused like the project's own lines (never-call.ts), before anything is counted or placed. It
// is kept when a visitor's data is erased: forgetting it would let the number be called again.
export interface NeverCallList {
  add(numberHash: string, atMs: number): Promise<void>;
  has(numberHash: string): Promise<boolean>;
  /** When it was listed, or null. */
  listedAt(numberHash: string): Promise<number | null>;
}

export function createMemoryNeverCallList(): NeverCallList {
  const listed = new Map<string, number>();
  return {
    async add(hash, at) {
      if (!listed.has(hash)) listed.set(hash, at);
    },
    async has(hash) {
      return listed.has(hash);
    },
    async listedAt(hash) {
      return listed.get(hash) ?? null;
    },
  };
}
