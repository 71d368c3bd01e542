// Destinations a callback must never ring, refused over real sockets before anything is counted or
// placed: the project's own office line (CALLBACK_CALLER, here the simulator's), ROUTE_FALLBACK,
// and toll-free numbers (the line's owner pays for every call). Each has its own code and sentence,
// and neither the answer nor the logs repeat the full number.
import { describe, expect, it } from 'vitest';
import { ORIGIN, postCallback } from '../../support/post-callback.ts';
import { callbackCalls, QUICK_CALLS, systemPerTest } from '../../support/system.ts';

const start = systemPerTest({ ALLOWED_ORIGINS: ORIGIN, ROUTE_FALLBACK: '+380671234567' }, { simulator: { timing: QUICK_CALLS } });

describe('destinations that are never called back', () => {
  it.each([
    ['the office line (CALLBACK_CALLER)', '+380 44 111 22 33', 'office_number_not_allowed', /our own office number/],
    ['the office line typed nationally', '044 111 22 33', 'office_number_not_allowed', /our own office number/],
    ['ROUTE_FALLBACK', '067 123 45 67', 'fallback_number_not_allowed', /one of our own numbers/],
    ['a toll-free number', '+380 800 50 1234', 'toll_free_number_not_allowed', /toll-free/],
  ])('refuses %s with its own code and sentence, placing nothing', async (_what, phone, code, sentence) => {
    const s = await start();
    expect(s.config.service.callback.caller).toBe('380441112233');
    const answer = await postCallback(s, { phone });
    expect(answer.status).toBe(400);
    expect(answer.json.error).toMatchObject({ code, field: 'phone', message: expect.stringMatching(sentence) });
    expect(answer.text.replace(/\D/g, '')).not.toMatch(/\d{9}/);
    expect(s.rawLogs.join('\n')).not.toMatch(/380441112233|380671234567|380800501234/);
    expect(callbackCalls(s)).toHaveLength(0);
    // A visitor's own number is still called.
    expect((await postCallback(s, { phone: '+380 44 111 22 34' })).status).toBe(202);
  });
});
