// How store calls are gathered into one command (storage/redis/same-tick.ts): those of one tick go
// together; with oneInFlight (read-only peeks), those made while a batch is on its way wait for its
// answer and then go together, whatever their number of ticks. Each caller gets its own answer, a
// failed batch fails only its own callers, and a full batch never waits.
import { describe, expect, it } from 'vitest';
import { gatherSameTick, type GatherOptions } from '../../../server/src/storage/redis/same-tick.ts';

/** A flush that answers each item doubled, once `answer()` is called for its batch. */
function controlledFlush(options: GatherOptions = {}) {
  const batches: Array<{ items: number[]; answer(): void; fail(err: Error): void }> = [];
  const call = gatherSameTick<number, number>(
    (items) =>
      new Promise((resolve, reject) => {
        batches.push({ items, answer: () => resolve(items.map((i) => i * 2)), fail: reject });
      }),
    options,
  );
  return { call, batches };
}

const ticks = async (n = 3) => {
  for (let i = 0; i < n; i++) await new Promise((r) => setImmediate(r));
};

describe('gathering store calls', () => {
  it('sends the calls of one tick together, each caller its own answer', async () => {
    const { call, batches } = controlledFlush();
    const answers = Promise.all([call(1), call(2), call(3)]);
    await ticks();
    expect(batches.map((b) => b.items)).toEqual([[1, 2, 3]]);
    batches[0]!.answer();
    expect(await answers).toEqual([2, 4, 6]);
  });

  it('without oneInFlight, sends a later tick’s calls at once, beside the batch on its way', async () => {
    const { call, batches } = controlledFlush();
    const first = call(1);
    await ticks();
    const second = call(2);
    await ticks();
    expect(batches.map((b) => b.items)).toEqual([[1], [2]]);
    for (const b of batches) b.answer();
    expect([await first, await second]).toEqual([2, 4]);
  });

  it('with oneInFlight, holds the calls of later ticks until the batch on its way is answered, then sends them as one', async () => {
    const { call, batches } = controlledFlush({ oneInFlight: true });
    const first = call(1);
    await ticks();
    const held = [call(2)];
    await ticks();
    held.push(call(3), call(4));
    await ticks();
    held.push(call(5));
    await ticks();
    expect(batches.map((b) => b.items)).toEqual([[1]]);
    batches[0]!.answer();
    expect(await first).toBe(2);
    await ticks();
    expect(batches.map((b) => b.items)).toEqual([[1], [2, 3, 4, 5]]);
    batches[1]!.answer();
    expect(await Promise.all(held)).toEqual([4, 6, 8, 10]);
    // Nothing on its way: the next call goes at once.
    const lone = call(6);
    await ticks();
    expect(batches).toHaveLength(3);
    batches[2]!.answer();
    expect(await lone).toBe(12);
  });

  it('with oneInFlight, a failed batch fails its own callers only, and the held calls are sent', async () => {
    const { call, batches } = controlledFlush({ oneInFlight: true });
    const first = call(1).catch((err: Error) => err.message);
    await ticks();
    const held = call(2);
    await ticks();
    batches[0]!.fail(new Error('redis went away'));
    expect(await first).toBe('redis went away');
    await ticks();
    expect(batches.map((b) => b.items)).toEqual([[1], [2]]);
    batches[1]!.answer();
    expect(await held).toBe(4);
  });

  it('with oneInFlight, sends a full batch (128 calls) at once, without waiting', async () => {
    const { call, batches } = controlledFlush({ oneInFlight: true });
    const first = call(0);
    await ticks();
    const many = Array.from({ length: 130 }, (_, i) => call(i + 1));
    await ticks();
    expect(batches.map((b) => b.items.length)).toEqual([1, 128]);
    batches[1]!.answer();
    batches[0]!.answer();
    await ticks();
    expect(batches.map((b) => b.items.length)).toEqual([1, 128, 2]);
    batches[2]!.answer();
    expect(await first).toBe(0);
    expect(await Promise.all(many)).toEqual(Array.from({ length: 130 }, (_, i) => (i + 1) * 2));
  });
});
