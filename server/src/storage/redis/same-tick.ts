// Command batching for the stores: calls made in the same tick (the peeks of one request, sent
// side by side with Promise.all) are gathered and handed to `flush` together, once the tick's
// synchronous code is done, so a store can answer them with one script instead of one command
// each. Each caller still gets its own answer; when the flush fails, every caller of it does.
//
// `oneInFlight` (read-only calls): while a batch is on its way, new calls wait for its answer and
// then go together, however many ticks they came in (a group commit). Under a flood that is one
// script for all the requests of a round trip instead of one per tick, and the relay's and Redis's
// work per command is shared by them all; a lone call is sent at once, as before. Only for calls
// whose order against other commands does not matter: a held call is sent later, never earlier.

/** Most calls in one batch: a burst of thousands becomes a few scripts, none of them long. */
const MAX_BATCH = 128;

export interface GatherOptions {
  /** At most one batch on its way (besides full ones); calls meanwhile wait for it. */
  oneInFlight?: boolean;
}

/** `flush(items)` must answer with one result per item, in order. */
export function gatherSameTick<I, O>(flush: (items: I[]) => Promise<O[]>, options: GatherOptions = {}): (item: I) => Promise<O> {
  let pending: Array<{ item: I; resolve(value: O): void; reject(err: unknown): void }> = [];
  let scheduled = false;
  let inFlight = 0;

  function schedule(): void {
    if (scheduled || pending.length === 0 || (options.oneInFlight && inFlight > 0)) return;
    scheduled = true;
    queueMicrotask(() => {
      if (scheduled) send(); // else sent already, full
    });
  }

  function send(): void {
    scheduled = false;
    const batch = pending;
    pending = [];
    inFlight++;
    flush(batch.map((p) => p.item)).then(
      (results) => {
        inFlight--;
        for (const [i, p] of batch.entries()) p.resolve(results[i]!);
        schedule();
      },
      (err: unknown) => {
        inFlight--;
        for (const p of batch) p.reject(err);
        schedule();
      },
    );
  }

  return (item) =>
    new Promise<O>((resolve, reject) => {
      pending.push({ item, resolve, reject });
      if (pending.length >= MAX_BATCH) send();
      else schedule();
    });
}
