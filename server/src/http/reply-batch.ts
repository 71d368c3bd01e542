// Replies leave in batches: each is written at the end of the event-loop turn in which it was
// made (setImmediate), together with every other reply of that turn, instead of the moment it is
// ready. Under load one turn answers many requests. Written one at a time, each reply wakes the
// process reading it (a load balancer or reverse proxy on the same host) while the relay goes on
// to compute the next answer, so that process falls asleep again and is woken for every reply:
// a wake-up costs the writer more than the write (~10 µs on a 2-core VM). Written together, the
// reader is woken once per batch. The same trade as Netty's FlushConsolidationHandler: a reply
// waits for the rest of its turn's work (nothing under light load, a few milliseconds under a
// flood) and the relay answers more requests per CPU second. Measured in docs/benchmarks.md.
import type { ServerResponse } from 'node:http';

export interface ReplyBatch {
  /** Runs `write` (which writes the whole reply to `res`) with the rest of this turn's replies. */
  add(res: ServerResponse, write: () => void): void;
}

/** `onError`: a write that threw (an invalid header); the response is destroyed after it. */
export function createReplyBatch(onError: (err: unknown) => void): ReplyBatch {
  let queue: Array<{ res: ServerResponse; write: () => void }> = [];

  function writeAll(): void {
    const due = queue;
    queue = [];
    for (const { res, write } of due) {
      try {
        write();
      } catch (err) {
        onError(err);
        res.destroy();
      }
    }
  }

  return {
    add(res, write) {
      if (queue.length === 0) setImmediate(writeAll);
      queue.push({ res, write });
    },
  };
}
