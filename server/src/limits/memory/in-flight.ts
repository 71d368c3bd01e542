// In-flight slots of the memory limit store: how many requests for one key are being placed now.
// Each slot frees itself after its TTL at worst, so a lost release cannot block a key forever.
export function createInFlight() {
  const held = new Map<string, { count: number; expires: number }>();
  return {
    acquire(key: string, max: number, ttlMs: number, nowMs: number): boolean {
      const h = held.get(key);
      if (h && h.expires > nowMs && h.count >= max) return false;
      const count = h && h.expires > nowMs ? h.count + 1 : 1;
      held.set(key, { count, expires: nowMs + ttlMs });
      return true;
    },
    release(key: string): void {
      const h = held.get(key);
      if (!h) return;
      if (h.count <= 1) held.delete(key);
      else h.count--;
    },
    get size(): number {
      return held.size;
    },
  };
}
