// The numbers of leads the owner may still call back. A finished job loses its number at once
// (privacy at rest), so a lead that ended missed or failed keeps it here, beside the job, for
// CALL_BACK_DAYS: the owner view's "call back now" (callback/use-cases/call-back.ts) reads it, and nothing else.
// Erasing a number (number-data/number-data.ts) removes it; an entry past its time is never answered and
// is deleted as new ones come.
export const CALL_BACK_DAYS = 7;

export interface CallBackNumbers {
  keep(callbackId: string, e164: string, numberHash: string, untilMs: number): Promise<void>;
  /** The number of a lead still within its time, or null. */
  get(callbackId: string, nowMs: number): Promise<string | null>;
  /** The leads whose number this is, kept until when. */
  ofNumber(numberHash: string): Promise<Array<{ callbackId: string; untilMs: number }>>;
  /** Forgets every entry of this number; how many there were. */
  erase(numberHash: string): Promise<number>;
}

export function createMemoryCallBackNumbers(): CallBackNumbers {
  const kept = new Map<string, { e164: string; numberHash: string; untilMs: number }>();
  return {
    async keep(id, e164, numberHash, untilMs) {
      kept.set(id, { e164, numberHash, untilMs });
    },
    async get(id, now) {
      const k = kept.get(id);
      return k && k.untilMs > now ? k.e164 : null;
    },
    async ofNumber(hash) {
      return [...kept].filter(([, k]) => k.numberHash === hash).map(([callbackId, k]) => ({ callbackId, untilMs: k.untilMs }));
    },
    async erase(hash) {
      let n = 0;
      for (const [id, k] of kept) if (k.numberHash === hash && kept.delete(id)) n++;
      return n;
    },
  };
}
