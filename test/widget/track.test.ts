// trackCall on its own, with fake timers and a stub relay: when it polls, when it calls the wait
// "slow" and stops saying so, and when it stops following the call. (The real relay and the
// progress view are exercised in app.test.tsx and test/e2e.)
import { afterEach, beforeEach, describe, expect, test, vi } from 'vitest';
import type { CallbackProgress, CallOutcome } from '../../server/src/contract/contract.ts';
import type { ApiResult, RelayApi } from '../../widget/src/api.ts';
import { cancelCall, trackCall, type CallProgressState } from '../../widget/src/ui/progress/track.ts';
import type { AcceptedCall } from '../../widget/src/ui/useCallbackFlow.ts';

const requestId = 'req-1';

/** A relay whose progress answers are given in order; once they run out it repeats the last one. */
function stubRelay(...answers: Array<ApiResult<CallbackProgress>>) {
  const progress = vi.fn(async (_id: string, _cancelToken?: string) => (answers.length > 1 ? answers.shift()! : answers[0]!));
  // The progress request as trackCall makes it: GET /api/callback/<id>, DELETE with the cancel token.
  const call = (path: string, _valid: unknown, init?: RequestInit) => {
    const id = decodeURIComponent(path.replace('/api/callback/', ''));
    const token = (init?.headers as Record<string, string> | undefined)?.['Cancel-Token'];
    return token === undefined ? progress(id) : progress(id, token);
  };
  const api = { call, status: () => Promise.reject(new Error('not used by trackCall')) } as RelayApi;
  return { api, progress };
}

const known = (outcome: CallOutcome, pollAfterMs?: number): ApiResult<CallbackProgress> => ({
  ok: true,
  data: pollAfterMs === undefined ? { requestId, outcome } : { requestId, outcome, pollAfterMs },
});

/** Starts following a call and records every state it reports after the first. */
function follow(api: RelayApi, estimateSeconds = 30, call: Partial<AcceptedCall> = {}) {
  const states: CallProgressState[] = [];
  const stop = trackCall(api, { requestId, estimateSeconds, ...call }, (state) => states.push(state));
  // The first state comes at once: the call as the relay took it.
  expect(states.shift()).toEqual({ requestId, outcome: call.status ?? 'accepted', final: false, slow: false, scheduledFor: call.scheduledFor });
  return { states, stop, last: () => states.at(-1) };
}

beforeEach(() => {
  vi.useFakeTimers();
});
afterEach(() => {
  vi.useRealTimers();
});

describe('trackCall', () => {
  test('first asks after a second, then at the pace the relay suggests, kept between 0.5 s and 15 s', async () => {
    const { api, progress } = stubRelay(known('accepted', 100), known('agent_ringing', 60_000), known('agent_ringing', 2000));
    follow(api);
    await vi.advanceTimersByTimeAsync(999);
    expect(progress).not.toHaveBeenCalled();
    await vi.advanceTimersByTimeAsync(1);
    expect(progress).toHaveBeenCalledOnce();
    expect(progress).toHaveBeenLastCalledWith(requestId);
    await vi.advanceTimersByTimeAsync(499); // 100 ms suggested: raised to 500
    expect(progress).toHaveBeenCalledOnce();
    await vi.advanceTimersByTimeAsync(1);
    expect(progress).toHaveBeenCalledTimes(2);
    await vi.advanceTimersByTimeAsync(14_999); // 60 s suggested: lowered to 15 s
    expect(progress).toHaveBeenCalledTimes(2);
    await vi.advanceTimersByTimeAsync(1);
    expect(progress).toHaveBeenCalledTimes(3);
  });

  test('a final outcome ends polling', async () => {
    const { api, progress } = stubRelay(known('connected', 1000), known('completed'));
    const { states } = follow(api);
    await vi.advanceTimersByTimeAsync(2000);
    expect(states).toEqual([
      { requestId, outcome: 'connected', final: false, slow: false },
      { requestId, outcome: 'completed', final: true, slow: false },
    ]);
    await vi.advanceTimersByTimeAsync(60_000);
    expect(progress).toHaveBeenCalledTimes(2);
    // Past the estimate (30 s + 15 s) nothing more is reported: the slow timer ended with the call.
    expect(states).toHaveLength(2);
  });

  test('an answer without pollAfterMs is final too, whatever its outcome', async () => {
    const { api, progress } = stubRelay(known('connected'));
    const { last } = follow(api);
    await vi.advanceTimersByTimeAsync(60_000);
    expect(last()).toEqual({ requestId, outcome: 'connected', final: true, slow: false });
    expect(progress).toHaveBeenCalledOnce();
  });

  test('"slow" once the estimate plus 15 s has passed before the phone rings, and no longer once it rings', async () => {
    const { api, progress } = stubRelay(known('agent_ringing', 15_000));
    const { states, last } = follow(api, 30);
    await vi.advanceTimersByTimeAsync(44_999);
    expect(states.some((s) => s.slow)).toBe(false);
    await vi.advanceTimersByTimeAsync(1);
    expect(last()).toEqual({ requestId, outcome: 'agent_ringing', final: false, slow: true });
    progress.mockImplementation(async () => known('ringing_you', 3000));
    await vi.advanceTimersByTimeAsync(15_000);
    expect(last()).toEqual({ requestId, outcome: 'ringing_you', final: false, slow: false });
  });

  test('"slow" never shows when the phone already rings at the estimate', async () => {
    const { api } = stubRelay(known('ringing_you', 3000));
    const { states } = follow(api, 10);
    await vi.advanceTimersByTimeAsync(60_000);
    expect(states.length).toBeGreaterThan(1);
    expect(states.every((s) => !s.slow)).toBe(true);
  });

  test('not_found (the relay forgot the request) ends with "unknown" at once', async () => {
    const { api, progress } = stubRelay({ ok: false, code: 'not_found' });
    const { states, last } = follow(api);
    await vi.advanceTimersByTimeAsync(1000);
    expect(states).toEqual([{ requestId, outcome: 'unknown', final: true, slow: false }]);
    await vi.advanceTimersByTimeAsync(60_000);
    expect(last()).toEqual({ requestId, outcome: 'unknown', final: true, slow: false });
    expect(progress).toHaveBeenCalledOnce();
  });

  test('other failures are retried every 3 s without changing the state', async () => {
    const { api, progress } = stubRelay({ ok: false, code: 'network_error' }, { ok: false, code: 'internal_error' }, known('connected', 1000));
    const { states } = follow(api);
    await vi.advanceTimersByTimeAsync(1000 + 3000);
    expect(progress).toHaveBeenCalledTimes(2);
    expect(states).toEqual([]);
    await vi.advanceTimersByTimeAsync(3000);
    expect(progress).toHaveBeenCalledTimes(3);
    expect(states).toEqual([{ requestId, outcome: 'connected', final: false, slow: false }]);
  });

  test.each([
    { answers: 'a call that never ends', answer: known('agent_ringing', 15_000), pollEveryMs: 15_000 },
    { answers: 'failures', answer: { ok: false, code: 'network_error' } as const, pollEveryMs: 3000 },
  ])('gives up after 4 minutes of $answers: "unknown", and polling stops', async ({ answer, pollEveryMs }) => {
    const { api, progress } = stubRelay(answer);
    const { last } = follow(api);
    await vi.advanceTimersByTimeAsync(4 * 60_000);
    expect(last()?.final).toBe(false);
    await vi.advanceTimersByTimeAsync(pollEveryMs);
    expect(last()).toEqual({ requestId, outcome: 'unknown', final: true, slow: false });
    const calls = progress.mock.calls.length;
    await vi.advanceTimersByTimeAsync(60_000);
    expect(progress).toHaveBeenCalledTimes(calls);
  });

  test('stopping ends polling and the slow timer, and an answer still in flight is ignored', async () => {
    let answer!: (result: ApiResult<CallbackProgress>) => void;
    const { api, progress } = stubRelay(known('agent_ringing', 1000));
    progress.mockImplementationOnce(() => new Promise((resolve) => (answer = resolve)));
    const { states, stop } = follow(api, 1);
    await vi.advanceTimersByTimeAsync(1000);
    expect(progress).toHaveBeenCalledOnce();
    stop();
    answer(known('connected', 1000));
    await vi.advanceTimersByTimeAsync(5 * 60_000);
    expect(states).toEqual([]);
    expect(progress).toHaveBeenCalledOnce();
  });
});

describe('trackCall: calls held for later', () => {
  const at = '2026-11-25T08:00:00.000Z';

  test('a scheduled call is followed at the relay\'s slow pace (up to 5 minutes), never "slow", never given up', async () => {
    const { api, progress } = stubRelay({ ok: true, data: { requestId, outcome: 'scheduled', scheduledFor: at, pollAfterMs: 600_000 } });
    const { states, last } = follow(api, 0, { status: 'scheduled', scheduledFor: at });
    await vi.advanceTimersByTimeAsync(1000);
    expect(progress).toHaveBeenCalledOnce();
    await vi.advanceTimersByTimeAsync(299_999);
    expect(progress).toHaveBeenCalledOnce();
    await vi.advanceTimersByTimeAsync(1);
    expect(progress).toHaveBeenCalledTimes(2);
    await vi.advanceTimersByTimeAsync(60 * 60_000);
    expect(last()).toEqual({ requestId, outcome: 'scheduled', final: false, slow: false, scheduledFor: at });
    expect(states.every((s) => !s.slow && !s.final)).toBe(true);
  });

  test('once placed, a held call gets the "slow" timer (30 s + 15 s) like any other', async () => {
    const { api } = stubRelay(known('queued', 2000), known('accepted', 2000));
    const { states, last } = follow(api, 0, { status: 'queued' });
    await vi.advanceTimersByTimeAsync(1000);
    expect(last()?.outcome).toBe('queued');
    await vi.advanceTimersByTimeAsync(2000);
    expect(last()?.outcome).toBe('accepted');
    await vi.advanceTimersByTimeAsync(44_999);
    expect(states.some((s) => s.slow)).toBe(false);
    await vi.advanceTimersByTimeAsync(1);
    expect(last()).toMatchObject({ outcome: 'accepted', slow: true });
  });

  test('redial carries the time of the next attempt; failed is final', async () => {
    const next = '2026-11-24T10:30:00.000Z';
    const { api, progress } = stubRelay({ ok: true, data: { requestId, outcome: 'redial', scheduledFor: next, pollAfterMs: 5000 } }, known('failed'));
    const { states } = follow(api);
    await vi.advanceTimersByTimeAsync(1000);
    expect(states.at(-1)).toEqual({ requestId, outcome: 'redial', final: false, slow: false, scheduledFor: next });
    await vi.advanceTimersByTimeAsync(5000);
    expect(states.at(-1)).toMatchObject({ requestId, outcome: 'failed', final: true });
    await vi.advanceTimersByTimeAsync(60_000);
    expect(progress).toHaveBeenCalledTimes(2);
  });

  test('cancelCall sends the token (DELETE) and ends following with "cancelled"', async () => {
    const { api, progress } = stubRelay(known('scheduled', 60_000));
    progress.mockImplementation(async (_id, token) => (token ? known('cancelled') : known('scheduled', 60_000)));
    const { last } = follow(api, 0, { status: 'scheduled', scheduledFor: at, cancelToken: 'tok-1' });
    await vi.advanceTimersByTimeAsync(1000);
    await cancelCall();
    expect(progress).toHaveBeenLastCalledWith(requestId, 'tok-1');
    expect(last()).toMatchObject({ requestId, outcome: 'cancelled', final: true });
    await vi.advanceTimersByTimeAsync(10 * 60_000);
    expect(progress).toHaveBeenCalledTimes(2);
  });

  test('a refused cancel (already being placed) says why and keeps following', async () => {
    const { api, progress } = stubRelay(known('scheduled', 60_000));
    progress.mockImplementation(async (_id, token) => (token ? { ok: false, code: 'not_cancellable' } : known('agent_ringing', 3000)));
    const { last } = follow(api, 0, { status: 'scheduled', scheduledFor: at, cancelToken: 'tok-1' });
    await cancelCall();
    expect(last()).toMatchObject({ requestId, outcome: 'scheduled', final: false, problem: 'not_cancellable' });
    await vi.advanceTimersByTimeAsync(1000);
    expect(last()).toMatchObject({ requestId, outcome: 'agent_ringing', final: false });
  });

  test('without a token (a call placed at once) there is nothing to cancel; after stop() neither', async () => {
    const { api, progress } = stubRelay(known('accepted', 60_000));
    const { stop } = follow(api);
    await cancelCall();
    expect(progress).not.toHaveBeenCalled();
    stop();
    expect(cancelCall()).toBeUndefined();
  });
});
