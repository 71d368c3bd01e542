// Command batching for the stores: calls made in the same tick (the peeks of one request, sent
// side by side with Promise.all) are gathered and handed to `flush` together, once the tick's
// synchronous code is done, so a store can answer them with one script instead of one command
// each. Each caller still gets its own answer; when the flush fails, every caller of it does.

/** Most calls in one batch: a burst of thousands becomes a few scripts, none of them long. */
const MAX_BATCH = 128;

/** `flush(items)` must answer with one result per item, in order. */
export function gatherSameTick<I, O>(flush: (items: I[]) => Promise<O[]>): (item: I) => Promise<O> {
  let pending: Array<{ item: I; resolve(value: O): void; reject(err: unknown): void }> = [];

  function send(): void {
    const batch = pending;
    if (batch.length === 0) return; // sent already, full
    pending = [];
    flush(batch.map((p) => p.item)).then(
      (results) => {
        for (const [i, p] of batch.entries()) p.resolve(results[i]!);
      },
      (err: unknown) => {
        for (const p of batch) p.reject(err);
      },
    );
  }

  return (item) =>
    new Promise<O>((resolve, reject) => {
      if (pending.length === 0) queueMicrotask(send);
      pending.push({ item, resolve, reject });
      if (pending.length >= MAX_BATCH) send();
    });
}
