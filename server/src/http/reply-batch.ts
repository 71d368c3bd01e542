// Replies leave in batches: each is written at the end of the event-loop turn in which it was made,
// with every other reply of that turn, so a reader on the same host (a load balancer, a reverse proxy)
// is woken once per batch instead of once per reply. A reply waits for the rest of its turn's work;
// the relay answers more requests per CPU second. Why, and what it measured: http/README.md.
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
