// A flood is answered with the same few refusals over and over: one reason, and a Retry-After that
// changes at most once a second. Each such reply is made, and its body written as JSON, once; the
// reply objects are shared, so they are frozen (send only reads a reply).
import { errorAnswer, serialized, type Answer } from '../contract/answer.ts';
import { RecentCache } from '../lib/recent-cache.ts';
import type { Refusal } from './limit-store.ts';
import { LimitRefusalError } from './refusal.ts';

export function createRefusalReplies(size = 1_000): (refusal: Refusal) => Answer {
  const replies = new RecentCache<string, Answer>(size);
  return (refusal) => {
    const key = `${refusal.reason}\0${refusal.retryAfter}`;
    let reply = replies.get(key);
    if (reply === undefined) {
      const made = serialized(errorAnswer(new LimitRefusalError(refusal)));
      reply = Object.freeze({ ...made, headers: Object.freeze({ ...made.headers }) });
      replies.set(key, reply);
    }
    return reply;
  };
}
