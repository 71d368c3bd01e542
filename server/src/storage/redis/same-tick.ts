// Command batching for the stores: calls made in the same tick are handed to `flush` together, so a
// store answers them with one script instead of one command each; each caller still gets its own
// answer. With `oneInFlight` (read-only calls), calls made while a batch is on its way wait and go
// together (a group commit): one script per round trip under a flood. When that is safe:
// storage/README.md.

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
