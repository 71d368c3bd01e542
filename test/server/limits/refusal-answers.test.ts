// Refusal replies are made once per reason and wait, and are the same answer a thrown refusal gets.
import { describe, expect, it } from 'vitest';
import { createRefusalReplies } from '../../../server/src/limits/refusal-answers.ts';
import { LimitRefusalError } from '../../../server/src/limits/refusal.ts';
import { relayErrorReply } from '../../../server/src/http/reply.ts';

describe('refusal replies', () => {
  it('answer as the refusal error would, with the body already JSON', () => {
    const replyFor = createRefusalReplies();
    const refusal = { reason: 'number_cooldown', retryAfter: 97 } as const;
    const reply = replyFor(refusal);
    const plain = relayErrorReply(new LimitRefusalError(refusal));
    expect(reply.status).toBe(429);
    expect(JSON.parse(reply.body as string)).toEqual(plain.body);
    expect(reply.headers).toMatchObject({ ...plain.headers, 'retry-after': '97', 'content-type': 'application/json; charset=utf-8' });
  });

  it('make each reason and wait once, and tell them apart', () => {
    const replyFor = createRefusalReplies();
    const first = replyFor({ reason: 'client_refusals', retryAfter: 600 });
    expect(replyFor({ reason: 'client_refusals', retryAfter: 600 })).toBe(first);
    expect(replyFor({ reason: 'client_refusals', retryAfter: 599 }).headers?.['retry-after']).toBe('599');
    expect(replyFor({ reason: 'site_daily_cap', retryAfter: 600 }).status).toBe(503);
  });
});
